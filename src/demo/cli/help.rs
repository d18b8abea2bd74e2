//! What the program says about itself: the `--help` text, and the keys it prints at start-up and
//! on `H`.

pub const HELP: &str = "\
skinning: skeletal skinning, shown step by step (a bone tree moves, a mesh follows it)

USAGE:
    skinning [OPTIONS] [FILE]    (FILE alone is --model FILE)

Without options it opens a window and animates the article's arm (playing the bend clip; the
article's own motion is --clip seed): bind-pose mesh in green, skinned mesh in red, bones in blue.
With --model it shows a glTF or MD5 (Doom 3) character instead, through the same code, its skinned
mesh filled and lit in its materials' colours. Press H in the window for the keys.

A flag that names a bone, a clip, a mesh or a morph target takes its name as the file has it, or
its index, or the name in another letter case, or the part after a namespace prefix (RightHand for
mixamorig:RightHand) where only one name fits; a note says which it took. A wrong name gets the
closest few; --info lists them all.

OPTIONS:
    --clip NAME             the article's scene: seed (the article's own motion), bend (default) or twist
    --model FILE            show a glTF 2.0 model (.gltf or .glb) or an MD5 model (.md5mesh; its
                            animations are the .md5anim files beside it with the same joints, in
                            name order, each named by its file's stem) instead of the article's scene
    --animation NAME|INDEX  with --model: the animation to play (default the first; a file with none
                            shows its rest pose, as a clip named rest; for MD5, rest is there last,
                            the bind pose as the .md5mesh stores it, unless a rest.md5anim is)
    --info                  with --model: print the file's axes, node tree, skins, meshes and
                            animations, and what is ignored, then exit; for MD5 also how far each
                            vertex's weights disagree about where it is (whether article 002's
                            formulas agree)
    --front AXIS            the axis of the model's own numbers its character faces: x, -x, y, -y,
                            z or -z, across its up (default: glTF's +z; for MD5, the way its feet
                            point, id's +x if they do not say); the picture looks at that side and
                            the exports write it as their format's front
    --export-gltf FILE      write the model shown (the article's scene, or --model's) with its clips,
                            normals, texture coordinates, materials and morph targets as a glTF 2.0
                            file (FILE.gltf: one JSON file, - for standard output; FILE.glb: binary);
                            models in other axes are turned to glTF's (Y up, facing +z). For
                            Blender or any glTF viewer. Never writes over a file the model was
                            read from. Says what it wrote, then exits. Takes only --model,
                            --front and --clips-from besides
    --export-md5 FILE.md5mesh
                            write the model shown (the article's scene, or --model's) as an MD5
                            model: FILE.md5mesh with the skin's joints, and NAME.md5anim beside it
                            for each clip, at the lowest rate its keys fall on (an MD5 clip's own,
                            120 frames a second at most, finer where a joint turns a third of a
                            turn from one frame to the next; its folder is made if missing: an MD5
                            model takes every .md5anim beside it); NAME is the clip's name with
                            every character but letters, digits, - _ . made _, the name itself
                            kept in the file's commandline; a model without clips gets
                            rest.md5anim, its rest pose; each mesh's material goes in its shader,
                            a texture as a PNG or JPEG beside the model, a colour as NAME rgba R G
                            B A; models are turned to id's axes (Z up, facing +x); a scale that
                            cannot be baked is refused. Never writes over a file the model was
                            read from; a file it names itself never replaces a file already
                            there, nor goes through a link. Says what it wrote, then exits. Takes
                            only --model, --front, --clips-from and --force besides
    --force                 with --export-md5: replace .md5anim files and textures already there
                            (still never a link, nor a file the model was read from)
    --blend CLIP=W,CLIP=W...
                            play these clips (as --animation or --clip names them) together, each
                            at its weight (divided by their sum), each at the same time and looping
                            by its own length
    --sync                  the --blend clips in step: at the same phase of their loops, the shared
                            cycle the weighted mean of their lengths (the window's own blends, F, J
                            and K, play in step unless --blend is given without --sync)
    --additive CLIP[=W][@REF]
                            add CLIP's change from a reference pose over what plays, at weight W
                            (default 1); REF is start (default: CLIP's first pose), rest (the rest
                            pose) or another clip (its first pose): a clip of one pose adds nothing
                            against itself, so T-Pose@Idle; may be given again
    --mask CLIP@BONE[=W]    CLIP drives BONE and every bone under it, at weight W from 0 to 1
                            (default 1); the other bones keep what plays; may be given again
    --fade SECONDS          how long a crossfade takes, --fade-to's and the window's (F) (default 0.5)
    --fade-to CLIP[@SECONDS]
                            crossfade from what plays to CLIP, starting at that animation time
                            (default: the first frame's), stepped by the mixer: a dump of it holds
                            the window's poses
    --time SECONDS          animation time of the first frame (default 0)
    --fixed-dt SECONDS      advance time by exactly this much per frame (reproducible runs)
    --frames N              draw N frames, then exit
    --screenshot FILE.png   after the last frame, save what was drawn as a PNG (needs --frames; with
                            --headless, one frame unless --frames says more)
    --size WxH              window or image size in pixels (default 640x480)
    --headless              no window, no display server: draw offscreen through EGL (needs --frames
                            or --screenshot)
    --dump FILE.json        no drawing at all: write bones, skin and poses as JSON; --frames N poses
                            (default 1), --fixed-dt apart (default 1/60 s); with --skinning gpu the
                            skinned positions come from the vertex shader (needs EGL)
    --weights BONE          start in weight view on this bone (name or index, as W cycles; a bone
                            that moves no vertex is refused)
    --morph NODE:TARGET=W   hold a morph target's weight at W over the clip's (a target by its name
                            or index, on the node that holds the mesh or the mesh's name; more than
                            once for more targets); --info lists them
    --skinning cpu|gpu|both where the skinned layer is blended: cpu (default), gpu (the vertex shaders
                            shaders/skinning.vert and skinning_dqs.vert), or both, the GPU's result
                            in magenta drawn over the CPU's
    --method lbs|dqs|both   how the skinned layer blends: lbs, linear blend skinning (default, red),
                            dqs, dual quaternions (crates/method/src/dual_quat.rs, orange), or both at once to
                            compare them; a dump takes lbs or dqs
    --surface on|off        the skinned mesh filled and lit by a light at the camera (on by default
                            where it has triangles), or drawn as lines (the article's outline is)
    --normals               a short line along each skinned normal (a mesh without normals of its
                            own: each triangle's, from its centre)
    --trail BONE            draw the path BONE's joint took over the last 480 frames, in yellow
                            (name or index; chapter 11 draws a foot with it, in step and not)
    --hide LAYER,...        start without these layers: bind, skinned, bones, names (the keys B, M,
                            S, N bring them back); --hide bind,bones shows a model's lit surface alone
    --camera YAW,PITCH[,ZOOM]
                            start with the camera turned by these degrees, the model framed as
                            seen from there, then zoomed (R comes back here); 0,80,1.4 looks down
                            on the twist
    --inspect VERTEX        start with the vertex inspector on this vertex (an index, as V cycles):
                            where each bone alone would put it, and the blend; its numbers are
                            printed (with --headless, for the last frame)
    --no-text               no words on the picture (bone names, the corner line): for pixel tests
    --reach [START..]END=X,Y,Z
                            the bone END reaches for the point X,Y,Z in the model's own numbers and
                            units (an MD5 model's are Z-up, as its file and --info have them): its
                            parent and grandparent turn (two-bone inverse kinematics, chapter 12),
                            or every bone from START down to END's parent (two-bone for two, CCD
                            for more), after the clip and any bend by hand; again for each bone
                            that reaches (both hands). A chain that would turn the whole character
                            or bones that move no vertex gets a note naming one nearby that does
                            not. Starts the window in reach mode (E); the dump writes each solve
    --pole X,Y,Z|BONE       after a --reach: the point its elbow or knee points towards, or a bone
                            whose joint is that point wherever the pose puts it (a rig's pole bone).
                            Default: the way the clip bends it; a straight limb (as in a T- or
                            A-pose) bends as a human's: elbows down and back, knees forward (from
                            the model's up and front), and a note says so
    --chain N               solve the --reach chains by CCD on the N bones above each end instead
    --reach-weight W        from the clip's pose (0) to the solved one (1, default)
    --soften RATIO          two-bone: from this fraction of the chain's length on, the end falls
                            behind a far target instead of snapping straight (default 1: never)
    --root-motion on|in-place|off
                            a clip that walks (chapter 17): its travel, the horizontal move and
                            the turn about up of the bone that carries the body, adds up over the
                            loops (on: the character goes across the floor, a grid drawn under it,
                            the camera following), or is taken out (in-place: that bone stays over
                            the origin), or plays as stored (off, default: each loop jumps back);
                            the dump writes each frame's travel so far. One clip, no layers
    --root-bone BONE        with --root-motion: the bone that carries the body (default: the first
                            named like Hips, Hip or Pelvis, else the root where the clip moves it;
                            a model with neither plays as stored, and a note says so)
    --clips-from FILE       play another model's clips (glTF or MD5, its axes turned into this
                            one's) on this one (chapter 18): each bone matched to the other's by
                            its name (as written, in any letter case, or after a prefix such as
                            mixamorig:), turned from its own rest pose as the other's turns from
                            its rest, in world terms, the hips' travel scaled by the legs' ratio;
                            a bone with no match keeps its rest pose, and a note lists them. The
                            exports write them as the model's own clips
    --look-at BONE=X,Y,Z    the bone BONE (a head) turns to face the point X,Y,Z in the model's own
                            numbers and units, and the two bones above it (below the root, unless
                            BONE hangs from the root) each take a share of the turn (chapter 19);
                            the root cannot look. Starts the window in reach mode (E),
                            where a left-drag on the head or its target moves the point; the dump
                            writes where the head's forward points and how far that is off
    --look-forward AXIS     the axis of BONE's own space its face points along: x, -x, y, -y, z or
                            -z (default: the model's front, as the head stands in the rest pose)
    --look-limit DEG        the most each of those bones turns from the clip's pose, in degrees
                            (default 60); past that the head looks as near as they let it
    --ground flat|slope:DEG|steps:HEIGHT
                            stand the legs on a floor (chapter 20): flat, a slope rising DEG
                            degrees towards the model's front (above -90, below 90), or steps
                            HEIGHT high (in the model's units; below 0 they go down) and as deep as
                            a leg is long. The legs are found by their feet's names (LeftFoot and
                            RightFoot, after any prefix; FootL and FootR; the Fox's); each reaches
                            by the two-bone solver so a planted sole stands on the ground, its
                            ankle turned to the slope, the hips lowered as far as the lower foot
                            needs. Starts the window in reach mode (E), the ground drawn under
                            the feet as lines; the dump writes each sole's height above the ground
    --threads N             blend the skin on N threads (default: all the machine has, but one beside
                            a software renderer such as llvmpipe, which draws on every core; 1: one
                            thread), for meshes of --parallel-from vertices or more
    --parallel-from VERTICES
                            blend on all --threads from this many vertices (default 6000, where
                            two threads first beat one, each blend after a pause as between frames,
                            in one run on a 2-core machine; chapter 14; 0: always; the result is
                            the same)
    --crowd N               N characters of the model on a grid, each at its own phase of the clip,
                            one job each on the --threads (1 to 10000; default 1, the model alone);
                            skinned on the GPU, all in one instanced draw per mesh; a grid of
                            more than one row seen from 35 degrees above where --camera does not
                            say
    --stats                 at exit, print pose + blend time per frame, frames per second, threads
                            that blended, allocations, the heap held, GL objects, resident memory;
                            with --model, first the time the file took to load; with --crowd,
                            what each extra character owns
    -h, --help              print this help
";

/// The keys, printed at start-up and on `H`.
pub const KEYS: &str = "\
green: the mesh as modelled (bind pose)   red: the mesh skinned this frame   blue: the bones
orange: skinned with dual quaternions     magenta: skinned on the GPU, over the CPU's
pale green: the normals                   cyan: a reach target, pale cyan: its pole
keys:
  Space        pause / resume          .  ,   step forward / back (paused)
  [  ]         scrub 0.1 s             +  -   speed x2 / /2 (0.125x to 8x)
  1 .. 9       clip 1 to 9             C      next clip (the article's: seed, bend, twist)
  F            crossfade to next clip  Y      clips in step / each at its own time
  J  K         weight to this clip / to the next clip, a tenth at a time
  B  M  S      show / hide bind mesh, skinned mesh, skeleton
  L  O         skinned mesh lit / as lines, normals on / off
  W            weight view: next bone  G      skinning on cpu / gpu / both
  D            blend: linear (lbs) / dual quaternions (dqs) / both
  E  Q         reach mode on / off; its solver: two-bone / CCD
  V            inspect the next vertex N      bone names on / off
  T            next morph target       U  I   its weight down / up (0.1, held)
  R            reset time, speed, camera, bent bones, targets, held morph weights
  P            save a screenshot       H      this list      Esc  quit
mouse:
  left-drag    orbit                   wheel  zoom
  left-drag    in reach mode, on a joint or a target: move that joint's target
  left-click   near a vertex: inspect it; elsewhere: stop inspecting
  right-drag   on a joint: bend that bone (R undoes it)";
