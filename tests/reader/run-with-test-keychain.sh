#!/usr/bin/env bash
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Runs a test binary against a keychain of its own: a private D-Bus session bus
# (dbus-run-session) with gnome-keyring-daemon providing the Secret Service
# (org.freedesktop.secrets) on it, its keyring files in a temporary home. The user's own
# session bus and keyring are never reached: the bus address is the private one, HOME and
# the XDG directories point into the temporary profile, removed at the end.
#
#   run-with-test-keychain.sh TEST_BINARY [TEST_FUNCTION...]
#
# Exits 77 (ctest SKIP_RETURN_CODE) when dbus-run-session or gnome-keyring-daemon is missing
# (Debian: dbus-daemon, gnome-keyring).
set -euo pipefail

test_binary=$1
shift
for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed (Debian: dbus-daemon, dbus-bin, gnome-keyring)"
        exit 77
    fi
done

if [ -z "${KEEPTRYING_INSIDE_TEST_BUS:-}" ]; then
    export KEEPTRYING_INSIDE_TEST_BUS=1
    exec dbus-run-session -- bash "$0" "$test_binary" "$@"
fi

profile=$(mktemp -d)
keyring_pid=""
cleanup() {
    if [ -n "$keyring_pid" ]; then
        kill "$keyring_pid" 2>/dev/null || true
        wait "$keyring_pid" 2>/dev/null || true
    fi
    rm -rf "$profile"
}
trap cleanup EXIT

export HOME=$profile/home
export XDG_DATA_HOME=$profile/data
export XDG_CONFIG_HOME=$profile/config
export XDG_CACHE_HOME=$profile/cache
export XDG_RUNTIME_DIR=$profile/run
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
# No desktop: QtKeychain then prefers libsecret (the Secret Service) over KWallet.
unset XDG_CURRENT_DESKTOP DESKTOP_SESSION KDE_FULL_SESSION GNOME_KEYRING_CONTROL DISPLAY

# --unlock reads the login keyring's password from stdin and creates that keyring (the
# default collection) when there is none.
printf 'test' | gnome-keyring-daemon --foreground --unlock --components=secrets \
    >"$profile/keyring.log" 2>&1 &
keyring_pid=$!
for _ in $(seq 1 100); do
    if dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null |
        grep -q 'boolean true'; then
        break
    fi
    sleep 0.1
done
if ! kill -0 "$keyring_pid" 2>/dev/null; then
    echo "SKIP: gnome-keyring-daemon did not start:"
    cat "$profile/keyring.log"
    exit 77
fi

export KEEPTRYING_TEST_KEYCHAIN_BUS=$DBUS_SESSION_BUS_ADDRESS
"$test_binary" "$@"
