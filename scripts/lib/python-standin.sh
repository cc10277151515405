# python_standin IMAGE RT: builds IMAGE, a stand-in for the official python image made from this
# machine's /usr/bin/python3 and its standard library (no pip, no tests), where no registry can be
# reached, as ../shared/container/podman-setup.sh does for node. 0 when IMAGE exists or was built.
python_standin() {
  local image=$1 rt=$2 python lib dir f
  "$rt" image exists "$image" 2>/dev/null && return 0
  python=$(readlink -f /usr/bin/python3 2>/dev/null) || return 1
  [ -x "$python" ] || return 1
  lib=$("$python" -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])') || return 1
  dir=$(mktemp -d)
  copy() { for f in "$@"; do [ -e "$f" ] && mkdir -p "$dir$(dirname "$f")" && cp -L "$f" "$dir$f"; done; }
  libs() { ldd "$@" 2>/dev/null | awk '/=>/ {print $3} /ld-linux/ {print $1}' | sort -u; }
  mkdir -p "$dir$lib" "$dir/usr/bin" "$dir/tmp" "$dir/etc"
  tar -C "$lib" --exclude=test --exclude=tests --exclude=__pycache__ --exclude=idlelib --exclude=tkinter \
    --exclude=ensurepip --exclude=dist-packages --exclude=site-packages -c . | tar -C "$dir$lib" -x
  copy "$python" /bin/sh /usr/bin/env /etc/ssl/certs/ca-certificates.crt
  # shellcheck disable=SC2046
  copy $(libs "$python" /bin/sh "$lib"/lib-dynload/*.so)
  ln -sf "$python" "$dir/usr/bin/python3"
  chmod 1777 "$dir/tmp"
  printf 'root:x:0:0:root:/root:/bin/sh\n' >"$dir/etc/passwd"
  tar -C "$dir" -c . | "$rt" import --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change 'CMD ["python3"]' - "$image" >/dev/null 2>&1
  local code=$?
  rm -rf "$dir"
  return $code
}
