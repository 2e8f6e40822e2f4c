#!/usr/bin/env bash
# Sourced by scripts/nginx.sh and scripts/redis.sh: apt_install WHO PACKAGE… installs
# Debian packages with apt-get as root, or with `sudo -n` when not root (WHO names the
# calling script in the message when neither is possible); output on stderr only.
apt_install() {
  local who="$1"
  shift
  local sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo -n"
    else
      echo "$who: $* missing and this is not root: install $*" >&2
      return 1
    fi
  fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update >/dev/null 2>&1
  $sudo apt-get install -y --no-install-recommends "$@" >&2
  SUDO="$sudo"
}
