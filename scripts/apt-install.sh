#!/usr/bin/env bash
# Installs Debian packages for CI and the test scripts: from the package lists the image has, and
# when those are missing or stale (a bare image ships none; a mirror drops old versions), again
# after `apt-get update`. Output goes to stderr: callers' stdout may be eval'd.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y "$@" >&2; then
  echo "apt-get install $* failed; updating the package lists and trying again" >&2
  apt-get update >&2
  apt-get install -y "$@" >&2
fi
