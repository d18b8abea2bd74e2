//! Chapter 12's numbers: the two-bone solve worked step by step on the article's arm, by hand (in
//! `f64`, from the formulas, with none of the library's code), and held against what the library
//! does; then CCD on the same arm, the distance left after each sweep; then the two compared.
//!
//! `cargo test --test reach_worked -- --nocapture --test-threads 1` prints them as the chapter
//! quotes them.

use glam::Vec3;
use skinning_method::frame::{Frame, Pose, Still};
use skinning_method::reach::chain::Chain;
use skinning_method::reach::{Reach, Solver, ccd};
use skinning_method::scene::{self, BONE1, BONE2, BONE31};

/// The arm in its bind pose (every bone at its rest transform: the article's numbers).
fn bind() -> (skinning_method::model::Model, Pose) {
    let model = scene::article().expect("the article's scene");
    let pose = Pose::new(&model);
    (model, pose)
}

const TARGET: Vec3 = Vec3::new(0.3, 0.3, 0.0);

fn rounded(v: Vec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z).replace("-0.0000", "0.0000")
}

#[test]
fn the_two_bone_solve_step_by_step_on_the_articles_arm() {
    let (model, mut pose) = bind();
    let [a, b, c] = [BONE1, BONE2, BONE31].map(|bone| pose.joint(bone).as_dvec3());
    let t = TARGET.as_dvec3();
    println!("two-bone, the article's arm in its bind pose, target {}:", rounded(TARGET));
    println!(
        "  start bone1 {}, middle bone2 {}, end bone31 {}",
        rounded(a.as_vec3()),
        rounded(b.as_vec3()),
        rounded(c.as_vec3())
    );

    // The lengths, and how far the target is.
    let (l1, l2, d) = (a.distance(b), b.distance(c), a.distance(t));
    println!("  l1 = |bone1 bone2| = {l1:.4}, l2 = |bone2 bone31| = {l2:.4}, d = |bone1 target| = {d:.4}");
    println!("  in reach from {:.4} (folded) to {:.4} (straight)", (l1 - l2).abs(), l1 + l2);
    assert!(
        (l1 - 0.2).abs() < 1e-7 && (l2 - 0.05f64.sqrt()).abs() < 1e-7 && (d - 0.1f64.sqrt()).abs() < 1e-7
    );

    // 1. The middle joint: the angle it has, the angle the law of cosines wants.
    let has = (a - b).angle_between(c - b).to_degrees();
    let wants = ((l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2)).acos().to_degrees();
    // The axis it bends about, (a - b) × (c - b), here -z; said as the same turn about +z.
    let hinge = (a - b).cross(c - b).normalize();
    let (shown_axis, shown_turn) = if hinge.z < 0.0 { (-hinge, has - wants) } else { (hinge, wants - has) };
    println!(
        "  1. bone2 has {has:.2} degrees between its bones; cos θ = (l1² + l2² - d²) / (2 l1 l2) = {:.4}, so θ = {wants:.2}",
        (l1 * l1 + l2 * l2 - d * d) / (2.0 * l1 * l2)
    );
    println!("     it turns by {shown_turn:.2} degrees about {}", rounded(shown_axis.as_vec3()));
    let bent = b + glam::DQuat::from_axis_angle(hinge, (wants - has).to_radians()) * (c - b);
    println!(
        "     bone31 goes to {}, now {:.4} from bone1, as d asks",
        rounded(bent.as_vec3()),
        a.distance(bent)
    );
    assert!((a.distance(bent) - d).abs() < 1e-9);

    // 2. The start joint aims: the smallest turn from bone1 → bone31 to bone1 → target.
    let aim = (bent - a).angle_between(t - a).to_degrees();
    let axis = (bent - a).cross(t - a).normalize();
    println!(
        "  2. bone1 turns by {aim:.2} degrees about {}: bone1 → bone31 now points at the target",
        rounded(axis.as_vec3())
    );
    println!("  3. no pole: the arm keeps the bend the clip gives it, in the plane z = 0");

    // What the library does, from the same pose: the end on the target, the turns as worked out.
    let mut reach =
        Reach::new(&model.skeleton, BONE31, Solver::TwoBone { soften: 1.0 }, TARGET).expect("a chain");
    let reached = reach.solve(&mut pose.local, &pose.bend);
    pose.run(&model, Frame::new(&Still, 0.0).palette_only()).expect("linear");
    let turn = |bone: usize| pose.local[bone].rotation.to_axis_angle();
    let ((axis2, angle2), (axis1, angle1)) = (turn(BONE2), turn(BONE1));
    println!(
        "  the library: bone2 turned {:.2} degrees about {}, bone1 {:.2} about {}",
        angle2.to_degrees(),
        rounded(axis2),
        angle1.to_degrees(),
        rounded(axis1)
    );
    println!(
        "  bone31 at {}, {:.1e} from the target; bone2 at {}",
        rounded(pose.joint(BONE31)),
        reached.distance,
        rounded(pose.joint(BONE2))
    );
    // Turning about -z by a negative angle is turning about +z by a positive one.
    let signed = |axis: Vec3, angle: f32| (axis.z.signum() * angle).to_degrees() as f64;
    assert!((signed(axis2, angle2) - (wants - has) * hinge.z.signum()).abs() < 1e-3, "bone2's turn");
    assert!((signed(axis1, angle1) - aim * axis.z.signum()).abs() < 1e-3, "bone1's turn");
    assert!(reached.distance < 1e-6);
}

#[test]
fn ccd_on_the_articles_arm_sweep_by_sweep_and_beside_the_two_bone_solve() {
    let (model, pose) = bind();
    let length = 0.2 + 0.05f32.sqrt();
    for bones in [2, 3] {
        let mut chain = Chain::new(&model.skeleton, BONE31, bones).expect("a chain");
        let mut trs = pose.local.clone();
        chain.measure(&trs, &pose.bend);
        let mut line = format!("CCD on {bones} bones to {}: distance left", rounded(TARGET));
        let mut left = chain.joint(bones).distance(TARGET);
        line.push_str(&format!(" {left:.4} (the bind pose)"));
        let mut sweeps = 0;
        while left > ccd::TOLERANCE * length {
            ccd::sweep(&mut chain, &mut trs, &pose.bend, TARGET);
            let now = chain.joint(bones).distance(TARGET);
            assert!(now < left, "a sweep never moves the end away");
            left = now;
            sweeps += 1;
            if sweeps <= 6 || left <= ccd::TOLERANCE * length {
                line.push_str(&format!(", {left:.1e}"));
            } else if sweeps == 7 {
                line.push_str(", ...");
            }
        }
        println!("{line}: {sweeps} sweeps");
        assert!(sweeps <= 20, "{bones} bones: {sweeps} sweeps");
    }

    // The two solvers on the same two-bone chain: the same end, and here the same elbow.
    let (mut two, mut by_ccd) = (pose.local.clone(), pose.local.clone());
    let mut reach =
        Reach::new(&model.skeleton, BONE31, Solver::TwoBone { soften: 1.0 }, TARGET).expect("a chain");
    reach.solve(&mut two, &pose.bend);
    let mut reach = Reach::new(&model.skeleton, BONE31, Solver::Ccd { bones: 2 }, TARGET).expect("a chain");
    let sweeps = reach.solve(&mut by_ccd, &pose.bend).sweeps;
    let joints = |trs: &[skinning_method::skeleton::Trs]| {
        let mut p = Pose::new(&model);
        p.local.copy_from_slice(trs);
        p.run(&model, Frame::new(&Still, 0.0).palette_only()).expect("linear");
        (p.joint(BONE2), p.joint(BONE31))
    };
    let ((elbow_two, end_two), (elbow_ccd, end_ccd)) = (joints(&two), joints(&by_ccd));
    println!("two-bone: bone2 at {}, bone31 at {}", rounded(elbow_two), rounded(end_two));
    println!("CCD, {sweeps} sweeps: bone2 at {}, bone31 at {}", rounded(elbow_ccd), rounded(end_ccd));
    println!(
        "apart: bone2 by {:.1e}, bone31 by {:.1e}",
        elbow_two.distance(elbow_ccd),
        end_two.distance(end_ccd)
    );
    assert!(end_two.distance(end_ccd) < 1e-5 && elbow_two.distance(elbow_ccd) < 1e-4);
}
