#!/usr/bin/env bash
# Builds the Debian package with cargo-deb and checks it: unpacked into a scratch root
# (`dpkg -x`), every file where it belongs, the configuration a conffile, the maintainer
# scripts there, and the installed binary accepting the installed configuration.
#
#   tests/package.sh            package the binary `cargo test` built (target/debug; fast: CI
#                               has just built it, and a release build would take another
#                               quarter of an hour on a small machine)
#   tests/package.sh --release  `cargo deb`: a release build, the package to distribute
#
# Installs cargo-deb (from crates.io, pinned) when missing. The .deb lands in target/debian/.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_DEB_VERSION=3.8.0
if ! cargo deb --version 2>/dev/null | grep -q "$CARGO_DEB_VERSION"; then
  cargo install cargo-deb --version "$CARGO_DEB_VERSION" --locked
fi

rm -rf target/debian
if [ "${1:-}" = "--release" ]; then
  cargo deb --locked
else
  # cargo-deb packs target/release/ccrelay; stage the test build's binary there in a target
  # folder of its own, so no real release folder is ever mistaken for it.
  # Where cargo builds: its default, or the folder CARGO_TARGET_DIR names.
  built=${CARGO_TARGET_DIR:-target}/debug/ccrelay
  if [ ! -x "$built" ]; then
    cargo test --locked --no-run
  fi
  stage=target/deb-stage
  mkdir -p "$stage/release"
  cp "$built" "$stage/release/ccrelay"
  CARGO_TARGET_DIR="$stage" cargo deb --no-build --locked --strip --fast --output target/debian/
fi

deb=$(ls target/debian/ccrelay_*.deb)
echo "built $deb ($(du -h "$deb" | cut -f1))"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg -x "$deb" "$root/fs"
dpkg -e "$deb" "$root/control"

fail=0
need() {
  if [ ! -e "$root/fs/$1" ]; then
    echo "missing in the package: /$1"
    fail=1
  fi
}
need usr/bin/ccrelay
need etc/ccrelay/ccrelay.toml
need usr/lib/systemd/system/ccrelay.service
need usr/share/man/man1/ccrelay.1.gz
need usr/share/man/man1/ccrelay-run.1.gz
need usr/share/man/man1/ccrelay-init.1.gz
need usr/share/bash-completion/completions/ccrelay
need usr/share/zsh/vendor-completions/_ccrelay
need usr/share/fish/vendor_completions.d/ccrelay.fish
need usr/share/doc/ccrelay/README.md
need usr/share/doc/ccrelay/ccrelay.toml.example
[ -x "$root/fs/usr/bin/ccrelay" ] || { echo "/usr/bin/ccrelay is not executable"; fail=1; }

grep -qx /etc/ccrelay/ccrelay.toml "$root/control/conffiles" \
  || { echo "/etc/ccrelay/ccrelay.toml is not a conffile"; fail=1; }
grep -q "install -d -m 0700 /var/lib/ccrelay" "$root/control/postinst" \
  || { echo "postinst does not make /var/lib/ccrelay"; fail=1; }
grep -q '^data_dir = "/var/lib/ccrelay"' "$root/fs/etc/ccrelay/ccrelay.toml" \
  || { echo "the configuration's journal is not in /var/lib/ccrelay"; fail=1; }
grep -q '^ExecStart=/usr/bin/ccrelay run --config /etc/ccrelay/ccrelay.toml' \
  "$root/fs/usr/lib/systemd/system/ccrelay.service" \
  || { echo "the unit does not start /usr/bin/ccrelay"; fail=1; }
man -l "$root/fs/usr/share/man/man1/ccrelay-init.1.gz" 2>/dev/null | grep -q "new club" \
  || zcat "$root/fs/usr/share/man/man1/ccrelay-init.1.gz" | grep -q "new club" \
  || { echo "ccrelay-init(1) does not describe init"; fail=1; }

# The installed binary on the installed configuration, as the unit's ExecStartPre runs it
# (the configuration's path given relative to the scratch root).
"$root/fs/usr/bin/ccrelay" --version
"$root/fs/usr/bin/ccrelay" check-config "$root/fs/etc/ccrelay/ccrelay.toml" \
  || { echo "check-config refuses the installed configuration"; fail=1; }

if [ "$fail" != 0 ]; then
  echo "package test: FAILED"
  exit 1
fi
echo "package test: ok ($(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version), $(dpkg -c "$deb" | wc -l) entries)"
