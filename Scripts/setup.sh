#!/usr/bin/env bash
# Installs what Zoetrope needs on a Debian machine (as root), only when it is missing:
# the codec libraries' -dev packages (libturbojpeg0-dev: JPEG stills; libjpeg-dev: libjpeg-turbo's
# libjpeg API, for a tagged JPEG decoded in bands and the incremental JPEG source; liblcms2-dev: colour
# management, ZoetropeColor), pkg-config, tmux for
# the terminal playback test, libavif-bin (avifdec) for the test that decodes `zoetrope
# convert`'s AVIF output, and valgrind (with binutils' objcopy) for Scripts/check-leaks.sh.
set -euo pipefail
packages=(libgif-dev libpng-dev libwebp-dev libavif-dev libturbojpeg0-dev libjpeg-dev liblcms2-dev libcurl4-openssl-dev pkg-config tmux python3 libavif-bin valgrind binutils time openssl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
if ! command -v swift >/dev/null 2>&1; then
  if [ -x /opt/swift/usr/bin/swift ]; then
    echo "setup: add /opt/swift/usr/bin to PATH" >&2
  else
    echo "setup: no Swift toolchain found (Swift 6.x is required)" >&2
    exit 1
  fi
fi
