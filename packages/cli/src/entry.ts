// The single-file bundle's entry point (scripts/bundle.mjs), run by the container images.
// As PID 1 in a container, node ignores a signal it has no handler for; until the CLI installs
// its graceful handlers, a SIGTERM or SIGINT must still end the process at once. The handlers
// go in before ./main loads its dependencies, hence the require below instead of an import.
function early(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) === 1) process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.on('SIGTERM', early);
process.on('SIGINT', early);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { main } = require('./main') as typeof import('./main');
main(process.argv, process.env);
