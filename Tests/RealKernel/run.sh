#!/usr/bin/env bash
# Runs focusd's device scenarios against a real Linux kernel in a QEMU guest (TCG): the host has
# no /dev/uinput. See Tests/RealKernel/README.md.
#
# usage: Tests/RealKernel/run.sh [--build-path DIR] [--configuration debug|release] [--only REGEX]
#                                [--timeout SECONDS] [--no-build]
#
#   --build-path DIR   the swift build directory holding the binaries (default: the repo's .build;
#                      the binaries are the host's build, seen by the guest through 9p)
#   --configuration C  debug (default) or release: which build of focusd and the test tool runs
#                      (scenarios marked `# focusd-build: release`, 78's latency figure, run a
#                      release focusd either way: it is built too when one of them is selected)
#   --only REGEX       run only the scenarios whose file name matches REGEX (grep -E)
#   --timeout SECONDS  the whole guest run's limit (default 900); a hung guest is a failure
#   --no-build         do not run `swift build` (use what is in the build path)
#
# RK_TRACE=1 in the environment reaches the scenarios: 85 then records the guest kernel's
# scheduler and system-call trace and prints where each step of both paths went.
#
# Prints one line per scenario (`pass`, `fail` or `pending`, its name and details), then
# `N passed, M failed` (the line CI reads) and, when there are any, `K pending (...)`. Exits 1
# when anything failed or the guest did not finish.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
build_path="$repo/.build"
only=""
guest_timeout=900
do_build=1
configuration=debug

while (($#)); do
    case "$1" in
        --build-path) build_path="$(cd "$2" && pwd)"; shift 2 ;;
        --only) only="$2"; shift 2 ;;
        -c|--configuration) configuration="$2"; shift 2 ;;
        --timeout) guest_timeout="$2"; shift 2 ;;
        --no-build) do_build=0; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done

log() { echo "run.sh: $*" >&2; }
started=$(date +%s)

# --- 1. Host packages -------------------------------------------------------------------------
missing=()
command -v qemu-system-x86_64 >/dev/null || missing+=(qemu-system-x86)
compgen -G "/boot/vmlinuz-*" >/dev/null || missing+=(linux-image-amd64)
[[ -x /bin/busybox ]] && file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' || missing+=(busybox-static)
[[ -x /usr/lib/systemd/systemd-udevd || -x /lib/systemd/systemd-udevd ]] || missing+=(udev)
command -v modprobe >/dev/null || missing+=(kmod)
[[ -x /usr/bin/python3 ]] || missing+=(python3)
command -v cpio >/dev/null || missing+=(cpio)
command -v file >/dev/null || missing+=(file)
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The newest installed kernel.
kernel_image="$(ls -1 /boot/vmlinuz-* | sort -V | tail -n 1)"
kver="${kernel_image#/boot/vmlinuz-}"

# --- 2. Binaries ------------------------------------------------------------------------------
# A release build is the deployment build (the Swift runtime linked in), with the flags of
# scripts/demo and debian/rules: SwiftPM compiles every module again when --static-swift-stdlib
# changes, so one set of flags lets all of CI share one release build in .build.
build_flags=(-c "$configuration")
[[ "$configuration" == release ]] && build_flags+=(--static-swift-stdlib)
if ((do_build)); then
    log "swift build (focusd-testdevice; focusd and focusctl if they build)"
    (cd "$repo" && swift build "${build_flags[@]}" --build-path "$build_path" --product focusd-testdevice >&2)
    (cd "$repo" && swift build "${build_flags[@]}" --build-path "$build_path" --product focusd >&2) \
        || log "focusd does not build: its scenarios stay pending"
    (cd "$repo" && swift build "${build_flags[@]}" --build-path "$build_path" --product focusctl >&2) \
        || log "focusctl does not build: the record/replay scenario fails"
fi
bin="$(cd "$repo" && swift build "${build_flags[@]}" --build-path "$build_path" --show-bin-path)"

# Scenarios whose header says `# focusd-build: release` (78, the latency figure) run the
# deployment build of focusd whatever the configuration: a debug build spends ~10x the
# instructions per key press (1.4 M against ~0.15 M for a Move, callgrind), and under TCG that
# is the whole figure. Built only when such a scenario is selected.
release_focusd=""
release_testdevice=""  # the relay floor of 78 (focusd-testdevice relay) in the same build as focusd
selected_release=0
for f in "$here"/scenarios/*; do
    name="$(basename "$f")"
    [[ -z "$only" ]] || grep -qE -- "$only" <<<"$name" || continue
    grep -q '^# focusd-build: release' "$f" && selected_release=1
done
if ((selected_release)); then
    if [[ "$configuration" == release ]]; then
        release_focusd="$bin/focusd"
        release_testdevice="$bin/focusd-testdevice"
    else
        if ((do_build)); then
            log "swift build -c release --static-swift-stdlib --product focusd (for the scenarios that measure the deployment build)"
            (cd "$repo" && swift build -c release --static-swift-stdlib --build-path "$build_path" --product focusd >&2) \
                || log "the release focusd does not build: those scenarios run the $configuration build"
            (cd "$repo" && swift build -c release --static-swift-stdlib --build-path "$build_path" --product focusd-testdevice >&2) \
                || log "the release focusd-testdevice does not build: 78's relay floor runs the $configuration build"
        fi
        release_bin="$(cd "$repo" && swift build -c release --static-swift-stdlib --build-path "$build_path" --show-bin-path)"
        [[ -x "$release_bin/focusd" ]] && release_focusd="$release_bin/focusd"
        [[ -x "$release_bin/focusd-testdevice" ]] && release_testdevice="$release_bin/focusd-testdevice"
    fi
fi
[[ -x "$bin/focusd-testdevice" ]] || { log "no $bin/focusd-testdevice (build it, or pass --build-path)"; exit 2; }

# The Varlink client library for the focusd scenarios, where the guest sees it (the shared root).
work="$build_path/realkernel"
pylib="$work/pylib"
if [[ ! -d "$pylib/varlink" ]]; then
    pip_python=/usr/bin/python3
    "$pip_python" -m pip --version >/dev/null 2>&1 || pip_python=python3
    "$pip_python" -m pip install -q --disable-pip-version-check --target "$pylib" varlink==31.0.0 >&2 \
        || log "cannot install varlink 31.0.0 from PyPI: the focusd scenarios will fail to import it"
fi

# --- 3. Initramfs: a static busybox and the modules, loaded in order by /init -----------------
initramfs="$work/initramfs-$kver.cpio.gz"
modules=(virtio_pci 9pnet_virtio 9p overlay evdev uinput uhid hid-generic hid-microsoft)
if [[ ! -s "$initramfs" || "$here/run.sh" -nt "$initramfs" ]]; then
    log "building the initramfs for $kver"
    root="$(mktemp -d)"
    trap 'rm -rf "$root"' EXIT
    mkdir -p "$root"/{bin,dev,proc,sys,host,newroot,overlay,modules}
    cp /bin/busybox "$root/bin/busybox"
    : > "$root/modules/order"
    declare -A seen=()
    for m in "${modules[@]}"; do
        while read -r verb path _; do
            [[ "$verb" == insmod && -z "${seen[$path]:-}" ]] || continue
            seen[$path]=1
            name="$(basename "$path")"
            case "$name" in
                *.ko.xz) xz -dc "$path" > "$root/modules/${name%.xz}"; name="${name%.xz}" ;;
                *.ko.zst) zstd -qdc "$path" > "$root/modules/${name%.zst}"; name="${name%.zst}" ;;
                *.ko.gz) gzip -dc "$path" > "$root/modules/${name%.gz}"; name="${name%.gz}" ;;
                *) cp "$path" "$root/modules/$name" ;;
            esac
            echo "$name" >> "$root/modules/order"
        done < <(modprobe -S "$kver" --show-depends "$m")
    done
    cat > "$root/init" <<'EOF'
#!/bin/busybox sh
# Stage 1: modules, the host root over 9p under a tmpfs overlay, then switch_root.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do insmod "/modules/$m" || echo "init: insmod $m failed"; done
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=512000,cache=loose hostroot /host \
    || { echo "init: cannot mount the host root"; echo o > /proc/sysrq-trigger; }
mount -t tmpfs -o size=256m tmpfs /overlay
mkdir -p /overlay/upper /overlay/work
mount -t overlay overlay -o lowerdir=/host,upperdir=/overlay/upper,workdir=/overlay/work /newroot
mkdir -p /newroot/realkernel-results
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 results /newroot/realkernel-results
for fs in proc sys dev; do mount -o move /$fs /newroot/$fs; done
exec switch_root /newroot /bin/sh /realkernel-results/stage2.sh
EOF
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initramfs.tmp"
    mv "$initramfs.tmp" "$initramfs"
    rm -rf "$root"
    trap - EXIT
fi

# --- 4. The run's shared results directory and the guest's stage 2 ----------------------------
results="$work/results"
rm -rf "$results"
mkdir -p "$results/logs"
if [[ -x "$bin/focusd" ]] && "$bin/focusd" --help 2>&1 | grep -q -- '--demo'; then
    focusd="$bin/focusd"
else
    focusd=""
fi
cat > "$results/stage2.sh" <<EOF
#!/bin/sh
# Stage 2, in the host's root (overlay): fresh /tmp and /run, then the scenario runner.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C.UTF-8
export RK_REPO='$repo' RK_BIN='$bin' RK_FOCUSD='$focusd' RK_RESULTS=/realkernel-results RK_ONLY='$only'
export RK_FOCUSD_RELEASE='$release_focusd' RK_TESTDEVICE_RELEASE='$release_testdevice' RK_TRACE='${RK_TRACE:-}'
export PYTHONPATH='$here/lib:$pylib' PYTHONDONTWRITEBYTECODE=1
# A checkout under /tmp or /run (CI may clone anywhere) must stay visible under the fresh mounts:
# hold it aside with a bind mount and put it back at the same path.
case '$repo' in
    /tmp/*|/run/*) mkdir -p /.realkernel-repo && mount --bind '$repo' /.realkernel-repo && held=1 ;;
esac
mount -t tmpfs tmpfs /tmp
mount -t tmpfs -o mode=755 tmpfs /run
if [ -n "\${held:-}" ]; then mkdir -p '$repo' && mount --bind /.realkernel-repo '$repo'; fi
mount -t devpts devpts /dev/pts 2>/dev/null || true
echo "stage2: guest up \$(cut -d' ' -f1 /proc/uptime) s after boot"
/usr/bin/python3 '$here/guest.py' || echo "stage2: guest.py exited with \$?"
sync
echo o > /proc/sysrq-trigger
while :; do :; done
EOF

# --- 5. Boot -------------------------------------------------------------------------------------
log "booting $kver under TCG (limit ${guest_timeout}s)"
# clocksource=tsc tsc=reliable: without them the guest kernel finds TCG's TSC unfit and keeps
# the emulated HPET, where one clock_gettime is a trap into QEMU's device model (18 us measured
# under load, against 1.8 us with the TSC read through the vDSO) and the kernel's own event
# stamps read it too. A real machine reads the TSC; a process that reads the clock per event
# (focusd, NIO) paid that trap many times over the bare reader's once.
console="$work/console.log"
set +e
timeout --kill-after=10 "$guest_timeout" qemu-system-x86_64 \
    -accel tcg -smp 2 -m 1024 -nographic -no-reboot -nic none \
    -kernel "$kernel_image" -initrd "$initramfs" \
    -append "console=ttyS0 loglevel=4 panic=-1 rdinit=/init clocksource=tsc tsc=reliable" \
    -virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
    -virtfs "local,path=$results,mount_tag=results,security_model=none" \
    </dev/null >"$console" 2>&1
qemu_status=$?
set -e

# --- 6. Report -----------------------------------------------------------------------------------
passed=0; failed=0; pending=0
if [[ -f "$results/results.txt" ]]; then
    while read -r status name details; do
        case "$status" in
            pass) passed=$((passed + 1)) ;;
            fail) failed=$((failed + 1)) ;;
            pending) pending=$((pending + 1)) ;;
            *) continue ;;
        esac
        printf '%-7s %-32s %s\n' "$status" "$name" "$details"
        if [[ "$status" == fail && -f "$results/logs/$name.log" ]]; then
            tail -n 15 "$results/logs/$name.log" | sed 's/^/        | /'
        fi
    done < "$results/results.txt"
fi
if [[ ! -f "$results/done" ]]; then
    failed=$((failed + 1))
    if ((qemu_status == 124 || qemu_status == 137)); then
        echo "fail    guest                            hung: no result after ${guest_timeout}s; console:"
    else
        echo "fail    guest                            ended (qemu status $qemu_status) before the runner finished; console:"
    fi
    tail -n 40 "$console" | sed 's/^/        | /'
fi
elapsed=$(($(date +%s) - started))
echo "$passed passed, $failed failed"
if ((pending)); then
    echo "$pending pending (need a focusd binary with --demo in $bin)"
fi
log "wall time ${elapsed}s; console log $console; scenario logs $results/logs"
((failed == 0))
