#!/usr/bin/env bash
# The Debian package as a user gets it (scripts/test runs this after the real-kernel tests, so the
# release build in .build is reused):
#   1. `dpkg-buildpackage -b -us -uc` builds focusd_VERSION_ARCH.deb (VERSION is FocusdVersion's);
#   2. lintian finds no error and no warning (overrides carry their reason in debian/);
#   3. every man page covers its program's --help and renders cleanly (scripts/check-manpages);
#   4. the file list is exactly what the package must hold, the config is its one conffile and
#      ships comments only, the units name /usr/bin and the programs carry their Swift runtime;
#   5. as root with dpkg free: `dpkg -i` for real (user and group made, the socket enabled, the
#      service neither enabled nor started, `systemd-analyze verify` content with the installed
#      units), then `dpkg --purge` leaves no file, link or conffile of it behind. A focusd user the
#      install created is removed again, so the machine is as before.
# usage: Tests/Package/run.sh [--no-install]   (--no-install: skip step 5)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
install_for_real=1
[[ "${1:-}" == --no-install ]] && install_for_real=0

failures=0
log() { echo "Tests/Package: $*" >&2; }
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
pass() { echo "ok: $*" >&2; }

scripts/deps package

version="$(dpkg-parsechangelog -S Version)"
arch="$(dpkg-architecture -qDEB_HOST_ARCH)"
code_version="$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/FocusService/Version.swift)"
[[ "$version" == "$code_version" ]] && pass "debian/changelog's version $version is the programs' (--version)" \
    || fail "debian/changelog says $version, Sources/FocusService/Version.swift says $code_version"

# --- 1. build ------------------------------------------------------------------------------------
out="$repo/.build/package"
mkdir -p "$out"
products=("focusd_${version}_${arch}.deb" "focusd-dbgsym_${version}_${arch}.deb"
          "focusd_${version}_${arch}.buildinfo" "focusd_${version}_${arch}.changes")
for f in "${products[@]}"; do rm -f "../$f" "$out/$f"; done
log "dpkg-buildpackage -b -us -uc"
start=$SECONDS
timeout 1800 dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1 \
    || { tail -40 "$out/build.log" >&2; fail "dpkg-buildpackage failed (log: $out/build.log)"; exit 1; }
for f in "${products[@]}"; do [[ -e "../$f" ]] && mv "../$f" "$out/"; done
deb="$out/focusd_${version}_${arch}.deb"
[[ -f "$deb" ]] || { fail "no $deb after the build"; exit 1; }
pass "dpkg-buildpackage built $(basename "$deb") in $((SECONDS - start)) s ($(du -k "$deb" | cut -f1) KiB)"

# --- 2. lintian ----------------------------------------------------------------------------------
log "lintian"
if lintian_output="$(timeout 600 lintian --fail-on error,warning --display-level '>=warning' \
        --show-overrides "$deb" 2>&1)"; then
    pass "lintian: no errors or warnings${lintian_output:+ (overridden: $(grep -c '^O:' <<<"$lintian_output"))}"
else
    fail "lintian: $lintian_output"
fi

# --- 3. man pages --------------------------------------------------------------------------------
if check="$(scripts/check-manpages --bin-dir "$(swift build -c release --static-swift-stdlib --show-bin-path)" 2>&1)"; then
    pass "$check"
else
    fail "man pages: $check"
fi

# --- 4. contents ---------------------------------------------------------------------------------
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
dpkg-deb -x "$deb" "$staging"
mapfile -t executables < <(scripts/executables)
expected=(
    /etc/focusd/focusd.toml
    /lib/systemd/system/focusd.service
    /lib/systemd/system/focusd.socket
    /lib/udev/rules.d/70-focusd.rules
    /usr/lib/sysusers.d/focusd.conf
    /usr/lib/tmpfiles.d/focusd.conf
    /usr/share/focusd/web/focusd.js
    /usr/share/doc/focusd/README.md
    /usr/share/doc/focusd/changelog.gz
    /usr/share/doc/focusd/copyright
    /usr/share/doc/focusd/examples/focusd.example.toml
    /usr/share/doc/focusd/examples/focusd-websocket.conf
    /usr/share/doc/focusd/examples/demo.html
    /usr/share/man/man5/focusd.toml.5.gz
)
for program in "${executables[@]}"; do
    expected+=("/usr/bin/$program")
    for page in man/"$program".[18]; do
        [[ -e "$page" ]] && expected+=("/usr/share/man/man${page##*.}/$(basename "$page").gz")
    done
done
for f in Sources/FocusService/Resources/*.varlink; do expected+=("/usr/share/focusd/$(basename "$f")"); done
for f in docs/*.md; do [[ -e "$f" ]] && expected+=("/usr/share/doc/focusd/$f"); done
for f in udev/focusd-adapter*.service; do [[ -e "$f" ]] && expected+=("/usr/lib/systemd/user/$(basename "$f")"); done
actual="$(cd "$staging" && find . \( -type f -o -type l \) | sed 's|^\.||' | sort)"
wanted="$(printf '%s\n' "${expected[@]}" | sort)"
if [[ "$actual" == "$wanted" ]]; then
    pass "the package holds exactly the ${#expected[@]} expected files"
else
    fail "file list differs (< expected, > in the package):
$(diff <(echo "$wanted") <(echo "$actual") | grep '^[<>]')"
fi

conffiles="$(dpkg-deb -I "$deb" conffiles 2>/dev/null || true)"
[[ "$conffiles" == "/etc/focusd/focusd.toml" ]] && pass "one conffile: /etc/focusd/focusd.toml" \
    || fail "conffiles should be /etc/focusd/focusd.toml alone, not: $conffiles"
cmp -s "$staging/etc/focusd/focusd.toml" udev/focusd.toml \
    && ! grep -Eqv '^[[:space:]]*(#.*)?$' "$staging/etc/focusd/focusd.toml" \
    && pass "the config ships as udev/focusd.toml: comments only, the built-in defaults" \
    || fail "the shipped config differs from udev/focusd.toml or has an active setting"
for unit in focusd.service focusd.socket; do
    if grep -q '/usr/local' "$staging/lib/systemd/system/$unit"; then fail "$unit still names /usr/local"; fi
done
grep -qx 'ExecStart=/usr/bin/focusd' "$staging/lib/systemd/system/focusd.service" \
    && pass "focusd.service starts /usr/bin/focusd" || fail "focusd.service's ExecStart is not /usr/bin/focusd"
for program in "${executables[@]}"; do
    if readelf -d "$staging/usr/bin/$program" | grep -q 'libswift'; then
        fail "$program links a shared Swift runtime: $(readelf -d "$staging/usr/bin/$program" | grep -o 'libswift[^]]*' | tr '\n' ' ')"
    fi
done
"$staging/usr/bin/focusd" --version | grep -qx "$version" && pass "the packaged focusd --version prints $version" \
    || fail "the packaged focusd --version does not print $version"

# --- 5. install and purge for real ---------------------------------------------------------------
if ((!install_for_real)); then
    log "--no-install: dpkg -i and --purge skipped"
elif [[ $EUID -ne 0 ]]; then
    log "not root: dpkg -i and --purge skipped"
elif dpkg-query -W -f='${Status}' focusd 2>/dev/null | grep -q 'install ok'; then
    log "a focusd package is installed on this machine: dpkg -i and --purge skipped (it stays as it is)"
else
    had_user=0; getent passwd focusd >/dev/null && had_user=1
    had_group=0; getent group focusd >/dev/null && had_group=1
    log "dpkg -i $(basename "$deb")"
    if ! install_log="$(timeout 300 dpkg -i "$deb" 2>&1)"; then
        fail "dpkg -i failed: $install_log"
    else
        pass "dpkg -i installed it"
        id -nG focusd 2>/dev/null | tr ' ' '\n' | grep -qx input \
            && pass "user focusd exists and is in group input (sysusers)" || fail "user focusd missing, or not in group input"
        [[ -L /etc/systemd/system/sockets.target.wants/focusd.socket ]] \
            && pass "focusd.socket is enabled" || fail "focusd.socket is not enabled"
        [[ ! -e /etc/systemd/system/multi-user.target.wants/focusd.service ]] \
            && pass "focusd.service is not enabled (nothing starts before it is configured)" \
            || fail "focusd.service was enabled at install"
        verify="$(systemd-analyze verify --man=no /lib/systemd/system/focusd.service /lib/systemd/system/focusd.socket 2>&1)" \
            && ! grep -q focusd <<<"$verify" && pass "systemd-analyze verify accepts the installed units" \
            || fail "systemd-analyze verify: $verify"
        [[ "$(man -w focusd 2>/dev/null)" == /usr/share/man/man8/focusd.8.gz ]] \
            && pass "man focusd finds the installed page" || fail "man -w focusd: $(man -w focusd 2>&1)"
    fi
    listed="$(dpkg-query -L focusd 2>/dev/null || true)"
    log "dpkg --purge focusd"
    timeout 300 dpkg --purge focusd >/dev/null 2>&1 || fail "dpkg --purge focusd failed"
    left=()
    while read -r path; do
        [[ -n "$path" && ( -f "$path" || -L "$path" ) ]] && left+=("$path")
    done < <(printf '%s\n' "${expected[@]}")
    for path in /etc/focusd /etc/systemd/system/sockets.target.wants/focusd.socket \
        /var/lib/systemd/deb-systemd-helper-enabled/focusd.socket \
        /var/lib/systemd/deb-systemd-helper-enabled/sockets.target.wants/focusd.socket; do
        [[ -e "$path" || -L "$path" ]] && left+=("$path")
    done
    if dpkg-query -W -f='${Status}' focusd 2>/dev/null | grep -q 'installed\|config-files'; then
        left+=("dpkg still knows focusd: $(dpkg-query -W -f='${Status}' focusd)")
    fi
    ((${#left[@]} == 0)) && pass "dpkg --purge left nothing behind ($(wc -l <<<"$listed") paths listed)" \
        || fail "after dpkg --purge these remain: ${left[*]}"
    # The Debian convention keeps a system user after purge; this test's machine gets its state back.
    ((had_user)) || userdel focusd 2>/dev/null || true
    ((had_group)) || groupdel focusd 2>/dev/null || true
fi

if ((failures)); then
    echo "Tests/Package: $failures check(s) failed" >&2
    exit 1
fi
echo "Tests/Package: all checks passed" >&2
