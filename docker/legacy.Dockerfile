# Legacy XML/STOMP simulator image (port 8080). Build from the repository root:
#   docker build -f docker/legacy.Dockerfile -t racedata/legacy-sim -t racedata/legacy-sim:<package version> .
# Where no registry is reachable (podman stand-in, see ../shared/container/README.md):
#   podman-sim build --network host --format docker \
#     --build-arg NODE_IMAGE=localhost/node-standin:20 -f docker/legacy.Dockerfile -t racedata/legacy-sim .
# The image holds the whole CLI; `replay` (see compose.yaml) runs from it as another command.
ARG NODE_IMAGE=node:20-alpine

# ---- build: every dependency, compile, bundle -------------------------------------------
# Identical in every Dockerfile under docker/, so a second image reuses the first one's layers.
FROM ${NODE_IMAGE} AS build
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/control/package.json packages/control/
COPY packages/recorder/package.json packages/recorder/
COPY packages/certify/package.json packages/certify/
COPY packages/legacy-sim/package.json packages/legacy-sim/
COPY packages/json-sim/package.json packages/json-sim/
COPY packages/testkit/package.json packages/testkit/
COPY packages/console/package.json packages/console/
COPY packages/cli/package.json packages/cli/
RUN npm ci --loglevel=error
COPY tsconfig.json tsconfig.base.json ./
COPY scripts/bundle.mjs scripts/bundle-wrappers.mjs scripts/bundle-on-demand.mjs scripts/bundle-testkit.mjs scripts/prime-code-cache.mjs scripts/
COPY packages/ packages/
# The console (esbuild), tsc --build, then scripts/bundle.mjs: the CLI, its production
# dependencies and the console's assets in one file. Then runs of both simulators write V8's
# code caches of the bundle and its on-demand part, so every container starts from compiled code.
RUN npm run build && node scripts/prime-code-cache.mjs

# ---- runtime: node, the bundle and its code cache, the recordings ---------------------------
FROM ${NODE_IMAGE}
ENV NODE_ENV=production
WORKDIR /app
# The npm bin's layout: bin/racedata-sim.js runs dist/racedata-sim.cjs through the cache; the
# bundle reads racedata-sim.on-demand.js beside it (through its own cache) when a module a start
# never runs is asked for.
COPY --from=build /app/packages/cli/bin/racedata-sim.js /app/packages/cli/bin/code-cache.js ./bin/
COPY --from=build /app/packages/cli/dist/racedata-sim.cjs /app/packages/cli/dist/racedata-sim.cjs.v8cache \
  /app/packages/cli/dist/racedata-sim.on-demand.js /app/packages/cli/dist/racedata-sim.on-demand.js.v8cache ./dist/
# Bundled recordings; mounting a directory on /recordings replaces them.
COPY recordings /recordings
# The docs pages the console links, served read-only at /_sim/docs/ (packages/cli/src/docs-root.ts).
COPY README.md CHANGELOG.md ./
COPY docs ./docs
# Every interface inside the container: the port mapping (-p) decides who reaches it. The
# command's own default is 127.0.0.1, which no mapped port could reach.
ENV PORT=8080 \
    HOST=0.0.0.0 \
    RECORDINGS_DIR=/recordings
EXPOSE 8080
USER node
# No curl needed; honours PORT given with -e, and a --port on the command (`certify listen
# --attach --port 9000`, `legacy --port 4000`), read from PID 1's command line (docker run --init
# keeps the command there too). (No --start-interval: podman 4 rejects it.)
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "let a=[];try{a=require('fs').readFileSync('/proc/1/cmdline','utf8').split('\\0')}catch{}const i=a.indexOf('--port'),e=a.find(x=>x.startsWith('--port=')),p=(i>0&&a[i+1])||(e&&e.slice(7))||process.env.PORT||8080;fetch('http://127.0.0.1:'+p+'/health',{signal:AbortSignal.timeout(2500)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: node is PID 1 and receives SIGTERM itself (the CLI closes within a second).
ENTRYPOINT ["node", "/app/bin/racedata-sim.js"]
CMD ["legacy"]
