#!/usr/bin/env bash
# Installs the benchmark's optional reference tools (Debian): ripgrep, hyperfine, GNU time.
set -euo pipefail
apt-get update -qq
apt-get install -y -qq ripgrep hyperfine time
