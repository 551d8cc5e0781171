#!/usr/bin/env bash
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Starts the reader from a build folder. Without a display it runs on the offscreen
# platform, waits until the library has loaded, saves a screenshot and exits.
set -euo pipefail
builddir=$1; shift
reader="$builddir/app/reader/keeptrying-reader"

if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    shot="$builddir/keeptrying-reader.png"
    QT_QPA_PLATFORM=offscreen exec "$reader" --screenshot "$shot" --screenshot-when loaded "$@"
fi
exec "$reader" "$@"
