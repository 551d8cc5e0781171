#!/usr/bin/env bash
# SPDX-FileCopyrightText: The KeepTrying authors
# SPDX-License-Identifier: MIT

# Makes the certificates tst_tls serves from its loopback QSslServer. They are checked in:
# run this again only to change them (needs the openssl command, 3.0 or later).
#   ca.pem           the test CA the client trusts (100 years)
#   other-ca.pem     a second CA the client does not trust
#   leaf.key         the one private key (EC P-256) every leaf below uses
#   good.pem         localhost / 127.0.0.1, signed by the test CA (100 years)
#   expired.pem      the same names and CA, valid in 2000 only
#   notyetvalid.pem  the same names and CA, valid from 2099
#   wronghost.pem    signed by the test CA for wrong-host.invalid only
#   selfsigned.pem   localhost / 127.0.0.1, signed by its own key
#   untrusted.pem    localhost / 127.0.0.1, signed by other-ca
# `openssl req -x509` and `x509 -req` of 3.0 cannot set a start date: `openssl ca` sets both
# ends, for the self-signed ones too (-selfsign), so the data never depends on the clock.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ec() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

# A certificate signed by its own key, with fixed dates: name, key, subject, extensions
selfsign() {
    mkdir -p "$work/$1.db"
    : >"$work/$1.db/index.txt"
    echo 01 >"$work/$1.db/serial"
    cat >"$work/$1.cnf" <<CNF
[ca]
default_ca = this
[this]
database = $work/$1.db/index.txt
new_certs_dir = $work/$1.db
serial = $work/$1.db/serial
certificate = $PWD/$1.pem
private_key = $2
default_md = sha256
policy = anything
unique_subject = no
copy_extensions = none
[anything]
commonName = supplied
CNF
    openssl req -new -key "$2" -subj "$3" -out "$work/$1.csr"
    printf '%b' "$4" >"$work/$1.ext"
    openssl ca -batch -notext -selfsign -config "$work/$1.cnf" -extfile "$work/$1.ext" \
        -startdate 20240101000000Z -enddate 21240101000000Z -in "$work/$1.csr" -out "$1.pem" \
        2>/dev/null
}

make_ca() { # name, subject
    ec "$work/$1.key"
    selfsign "$1" "$work/$1.key" "$2" \
        'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n'
}

# name, ca, subject alternative names, start, end (YYYYMMDDHHMMSSZ)
sign() {
    openssl req -new -key leaf.key -subj "/CN=$1" -out "$work/$1.csr"
    printf 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=%s\n' \
        "$3" >"$work/$1.ext"
    openssl ca -batch -notext -config "$work/$2.cnf" -extfile "$work/$1.ext" \
        -startdate "$4" -enddate "$5" -in "$work/$1.csr" -out "$1.pem" 2>/dev/null
}

names="DNS:localhost,IP:127.0.0.1"
ec leaf.key
make_ca ca "/O=KeepTrying tests/CN=KeepTrying Test CA"
make_ca other-ca "/O=KeepTrying tests/CN=KeepTrying Untrusted CA"
sign good ca "$names" 20240101000000Z 21240101000000Z
sign expired ca "$names" 20000101000000Z 20010101000000Z
sign notyetvalid ca "$names" 20990101000000Z 21990101000000Z
sign wronghost ca "DNS:wrong-host.invalid" 20240101000000Z 21240101000000Z
sign untrusted other-ca "$names" 20240101000000Z 21240101000000Z
selfsign selfsigned leaf.key "/CN=selfsigned" \
    "basicConstraints=CA:FALSE\\nextendedKeyUsage=serverAuth\\nsubjectAltName=$names\\n"
