#!/usr/bin/env bash
# Redraws every picture of the book with the command its caption gives.
#
#   docs/pictures.sh [OUTDIR]
#
# Without OUTDIR it rewrites the pictures in docs/; CI gives it a scratch folder instead, to prove
# the captions' commands still work. It builds nothing: it runs the program named by SKINNING_BIN,
# else target/release/skinning (so `cargo build --release` first). Each `picture NAME ARGS...` line
# below runs `skinning ARGS... --screenshot OUTDIR/NAME`, with ARGS as the caption writes them
# (tests/book/main.rs checks that they agree). The commands run in the folder SKINNING_MODELS names (the
# one the tests read the sample models from), so that a caption's `--model Fox.glb` finds the
# Khronos sample there; without it, the pictures before the first model's are drawn, and the
# script stops there with exit code 2.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
bin="${SKINNING_BIN:-$root/target/release/skinning}"
if [ ! -x "$bin" ]; then
    echo "pictures.sh: no program at $bin: run cargo build --release, or set SKINNING_BIN" >&2
    exit 2
fi
bin="$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")"
models="${SKINNING_MODELS:-}"

picture() {
    local name="$1"
    shift
    if [[ " $* " == *" --model "* ]] && [ ! -d "$models" ]; then
        echo "pictures.sh: $name needs a model: set SKINNING_MODELS to the folder holding it" >&2
        exit 2
    fi
    (cd "${models:-$out}" && "$bin" "$@" --screenshot "$out/$name" >/dev/null)
    echo "$out/$name"
}

# README.md: the article's arm, playing the default clip, bend.
picture screenshot.png --headless --frames 30 --fixed-dt 0 --time 1.5 --size 800x500
# docs/05-one-vertex.md: the vertex inspector on vertex 2 of the twist.
picture inspect.png --headless --clip twist --time 2 --inspect 2 --frames 30 --fixed-dt 0 --size 800x500
# docs/07-the-twist-and-dual-quaternions.md: the twist at 150 degrees, seen from above, both ways.
picture twist-lbs.png --headless --frames 1 --clip twist --time 2.0 --method lbs --camera 0,80,1.4 --size 560x360
picture twist-dqs.png --headless --frames 1 --clip twist --time 2.0 --method dqs --camera 0,80,1.4 --size 560x360
# docs/08-normals.md: the three.js robot walking, lit.
picture robot.png --headless --model RobotExpressive.glb --animation Walking --time 0.4 --camera 35,10 --frames 1 --no-text --size 800x500
# docs/09-a-real-model.md: the Fox running.
picture fox.png --headless --model Fox.glb --animation Run --time 0.35 --camera 60,10 --frames 1 --no-text --size 800x500
# docs/11-many-clips-at-once.md: the Fox's Walk and Run half and half, in step; the robot walking
# with the Wave clip over its right shoulder's subtree.
picture trot-in-step.png --headless --model Fox.glb --blend Walk=0.5,Run=0.5 --sync --time 1.5 --camera 90,10 --frames 1 --size 800x500
# The left hind foot's trail over 4 s, the same blend in step and out of step.
picture trail-in-step.png --headless --model Fox.glb --blend Walk=0.5,Run=0.5 --sync --trail b_LeftFoot02_018 --frames 400 --fixed-dt 0.01 --camera 90,0,1.4 --hide bind --size 400x300
picture trail-out-of-step.png --headless --model Fox.glb --blend Walk=0.5,Run=0.5 --trail b_LeftFoot02_018 --frames 400 --fixed-dt 0.01 --camera 90,0,1.4 --hide bind --size 400x300
picture wave-while-walking.png --headless --model RobotExpressive.glb --animation Walking --mask Wave@ShoulderR --time 0.6 --camera 35,10 --frames 1 --size 800x500
# docs/13-the-other-weighted-sums.md: the robot's face as modelled, and surprised (a morph target).
picture robot-face.png --headless --model RobotExpressive.glb --animation Idle --camera 0,-25,1.5 --frames 1 --no-text --size 400x400
picture robot-surprised.png --headless --model RobotExpressive.glb --animation Idle --camera 0,-25,1.5 --morph Head_4:Surprised=1 --frames 1 --no-text --size 400x400
# docs/10-two-ways-to-store-a-skin.md: the Fox exported to MD5, walking, one vertex inspected. The
# export goes to a scratch folder (the sample models' may be read-only), and the picture is drawn there.
md5="$(mktemp -d)"
(cd "$models" && "$bin" --model Fox.glb --export-md5 "$md5/fox-md5/fox.md5mesh")
saved="$models"
models="$md5"
picture two-ways-fox.png --model fox-md5/fox.md5mesh --animation Walk --headless --frames 1 --time 0.3 --size 800x500 --inspect 53 --camera 60,10
models="$saved"
rm -r "$md5"
# docs/12-reaching.md: the article's arm reaching for a point, its elbow towards a pole; the robot
# holding its right hand out while it walks.
picture reach-arm.png --headless --frames 1 --clip bend --time 1.0 --reach bone31=0.3,0.3,0 --pole 0.55,-0.1,0 --size 800x500
picture reach-robot.png --headless --model RobotExpressive.glb --animation Walking --time 0.4 --reach Palm2R=-2.3,2.5,0.5 --camera -20,10 --frames 1 --size 800x500
# The T-posed figure of tests/common/rigs.rs (written out as tests/t-pose.gltf), its straight limbs
# bent by the default rule: elbows down and back, the knee forward. Drawn in tests/, where it is.
saved="$models"
models="$root/tests"
picture reach-t-pose.png --headless --model t-pose.gltf --animation Idle --reach RightHand=0.05,1.35,0.3 --reach LeftHand=0.45,1.55,0.2 --reach RightFoot=-0.1,0.35,0.3 --camera -60,15 --hide bind --frames 1 --size 800x500
# docs/17-root-motion.md: the walking figure of tests/common/rigs.rs (tests/walker.gltf), its Turn
# clip's travel added up over almost four loops, the hips' trail a circle on the floor's grid.
picture root-motion-turn.png --headless --model walker.gltf --animation Turn --root-motion on --trail mixamorig:Hips --frames 390 --fixed-dt 0.02 --camera 20,45,0.6 --hide bind --no-text --size 800x500
# docs/18-a-clip-from-another-body.md: two bodies side by side, mid-stride: the walker in its own
# Walk, and its Walk carried onto tests/stocky.gltf, the same Mixamo names on shorter legs and longer arms.
picture clips-from-walker.png --headless --model walker.gltf --animation Walk --time 0.25 --camera 70,10 --hide bind --frames 1 --no-text --size 400x500
picture clips-from-stocky.png --headless --model stocky.gltf --clips-from walker.gltf --animation Walk --time 0.25 --camera 70,10 --hide bind --frames 1 --no-text --size 400x500
# docs/20-feet-on-the-ground.md: the walker's Walk on steps 0.2 high, each step's two edges drawn.
picture ground-steps.png --headless --model walker.gltf --animation Walk --ground steps:0.2 --time 0.25 --camera 40,25,1.3 --hide bind --frames 1 --no-text --size 800x500
models="$saved"
# docs/19-looking-at-things.md: the robot idling, its head turned up and to its left, at a point.
picture look-robot.png --headless --model RobotExpressive.glb --animation Idle --look-at Head=2,3.6,2.5 --camera 0,5 --frames 1 --size 800x500
