#!/usr/bin/env bash
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Installs the Debian packages KeepTrying needs, only those that are missing.
# Runs apt-get as root (or through sudo); does nothing on a machine that has them all.
# `setup-debian.sh fuzz` also installs what `make fuzz` needs (clang and libFuzzer), which
# `make test` does not.
set -euo pipefail

packages=(
    cmake ninja-build g++ make pkg-config
    qt6-base-dev qt6-base-dev-tools
    qt6-httpserver-dev qt6-websockets-dev   # Qt6HttpServer's CMake package needs QtWebSockets
    libqt6sql6-sqlite qt6-l10n-tools qt6-tools-dev   # qt6-tools-dev: LinguistTools for the .ts
    libsqlite3-dev   # the reader's accent-folding search registers a function on Qt's SQLite
    libgl-dev fonts-dejavu-core
    qt6-translations-l10n   # Qt's own words (Cancel, OK) in the reader's language
    iproute2 util-linux
    libnghttp2-dev valgrind   # the HTTP/2 test server; the memcheck pass of make test
    qtkeychain-qt6-dev   # the reader keeps sign-in secrets in the system keychain
    libsecret-1-0   # QtKeychain loads it at run time to reach the Secret Service
    dbus-daemon dbus-bin gnome-keyring   # tst_credentialstore_keychain: a private bus + keyring
    libqt6network6 libssl3   # Qt's TLS plugin (libqopensslbackend) and the OpenSSL it loads
    openssl   # tests/network/tls/make-certs.sh, to make the TLS suite's certificates again
    doxygen   # the docs target: the API reference from the public headers
    qt6-declarative-dev qml6-module-qtquick qml6-module-qtqml-workerscript   # KeepTrying::Quick, its tests and examples/qml
    curl   # tst_fetchproxy runs curl beside keeptrying-fetch: the proxy choice is curl's
)
if [ "${1:-}" = fuzz ]; then
    packages+=(clang libclang-rt-dev)   # libclang-rt-dev: libFuzzer and the sanitizer runtimes
fi

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
