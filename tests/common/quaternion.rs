//! Quaternions as [x, y, z, w] in f64, written out here so that the tests' checks do not lean on
//! the library's (or glam's) formulas.

/// The Hamilton product `a b`: turn by b, then by a.
pub fn hamilton(a: [f64; 4], b: [f64; 4]) -> [f64; 4] {
    let [ax, ay, az, aw] = a;
    let [bx, by, bz, bw] = b;
    [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]
}

/// The conjugate: for a unit quaternion, the opposite turn.
pub fn conjugate([x, y, z, w]: [f64; 4]) -> [f64; 4] {
    [-x, -y, -z, w]
}
