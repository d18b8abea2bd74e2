//! The hand-written MD5 model of `tests/md5_import.rs`, small enough to work out on paper: the
//! fixture the MD5 tests share.

/// Two joints. `root` at the origin, unturned. `arm` at (1, 0, 0), a quarter turn about +z: id
/// stores only x y z and takes w = -sqrt(1 - x² - y² - z²), so (0, 0, -0.7071068) is
/// -(0, 0, 0.7071068, 0.7071068), which is the same turn: +90° about z.
///
/// Three vertices. v0 on root alone at (0.5, 0.2, 0). v1 half on each: at (1, 0.2, 0), which is
/// (1, 0.2, 0) in root's space and, in arm's space, (0.2, 0, 0) (subtract arm's position, turn
/// back a quarter). v2 on arm alone, (0.5, 0, 0) in its space: (1, 0.5, 0).
pub const MESH: &str = "MD5Version 10
commandline \"written by hand\"
numJoints 2
numMeshes 1

joints {
\t\"root\"\t-1 ( 0 0 0 ) ( 0 0 0 )
\t\"arm\"\t0 ( 1 0 0 ) ( 0 0 -0.7071068 )\t\t// root
}

mesh {
\tshader \"hand\"
\tnumverts 3
\tvert 0 ( 0 0 ) 0 1
\tvert 1 ( 0 0 ) 1 2
\tvert 2 ( 0 0 ) 3 1
\tnumtris 1
\ttri 0 0 2 1
\tnumweights 4
\tweight 0 0 1 ( 0.5 0.2 0 )
\tweight 1 0 0.5 ( 1 0.2 0 )
\tweight 2 1 0.5 ( 0.2 0 0 )
\tweight 3 1 1 ( 0.5 0 0 )
}
";

/// Three frames, 10 a second. Root's x is animated (flags 1), arm's orientation (flags 8+16+32).
/// Frame 0 is the bind pose; in frame 1 root has moved to x = 2 and arm is unturned; frame 2 is
/// frame 0 again, so the loop closes (its end, 0.2 s, is its start).
pub const ANIM: &str = "MD5Version 10
commandline \"\"
numFrames 3
numJoints 2
frameRate 10
numAnimatedComponents 4

hierarchy {
\t\"root\"\t-1 1 0
\t\"arm\"\t0 56 1
}

bounds {
\t( 0 0 0 ) ( 1 1 0 )
\t( 2 0 0 ) ( 4 1 0 )
\t( 0 0 0 ) ( 1 1 0 )
}

baseframe {
\t( 0 0 0 ) ( 0 0 0 )
\t( 1 0 0 ) ( 0 0 -0.7071068 )
}

frame 0 {
\t0 0 0 -0.7071068
}

frame 1 {
\t2 0 0 0
}

frame 2 {
\t0 0 0 -0.7071068
}
";
