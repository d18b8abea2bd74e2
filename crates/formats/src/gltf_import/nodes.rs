//! Nodes become bones: glTF's node hierarchy is the article's bone tree (spec, "Nodes and
//! Hierarchy").
//!
//! Bone `i` is node `i`, named after it. A node lists its `children`; the article links a bone to
//! its **first child** and each child to its next **sibling**, so `children[0]` becomes the first
//! child and every later child the sibling of the one before. glTF allows several nodes without a
//! parent (a scene lists its roots, and a file may hold nodes that no scene lists); the article's
//! tree has one root, so when more than one node has no parent, scene or not, we add one more bone,
//! the **synthetic root**, with all of them as its children. It never moves.
//!
//! A node places itself in its parent's space by `translation`, `rotation` and `scale` (the matrix
//! `T * R * S`), or by one `matrix`, which we split into the same three parts (spec: a node's
//! matrix must be decomposable, no shear). That is the bone's **rest** transform: the pose when no
//! animation moves it. It need not be the **bind** pose; the skins bring their own offsets.
//!
//! The spec requires the nodes to form disjoint trees: no node is a child of two parents, and no
//! node is its own ancestor. A damaged file may break that, so both are checked and named. So is
//! a rest pose whose world transforms are too large for 32-bit floats.

use super::error::{ImportError, label};
use glam::{Mat4, Quat, Vec3};
use skinning_method::skeleton::{BoneId, MAX_DEPTH, Skeleton, SkeletonBuilder, Trs};

/// The name of the bone added above the nodes without a parent, when there is more than one.
pub const SYNTHETIC_ROOT: &str = "(scene root)";

/// The bone tree of the file's nodes, and which nodes the shown scene holds.
pub struct Nodes {
    pub skeleton: Skeleton,
    /// For every node (bone `i` < node count): whether it is in the scene that is shown, the
    /// file's `scene` (or the first scene; every node when the file has no scenes).
    pub in_scene: Vec<bool>,
    /// The shown scene, as messages name it (`#0 "Scene"`); None when the file has no scenes.
    pub scene: Option<String>,
    /// Every bone's world transform in the rest pose (computed once: checked here, used by the
    /// meshes).
    pub rest_world: Vec<Mat4>,
    /// The nodes that hold a mesh, in node order: found once, as a file may have a million nodes
    /// and a handful of meshes.
    pub with_mesh: Vec<usize>,
}

impl Nodes {
    /// The nodes of the shown scene that hold a mesh, in node order.
    pub fn shown_meshes<'a>(
        &'a self,
        document: &'a gltf::Document,
    ) -> impl Iterator<Item = gltf::Node<'a>> + 'a {
        let nodes = self.with_mesh.iter().filter(|&&i| self.in_scene[i]);
        nodes.filter_map(|&i| document.nodes().nth(i))
    }
}

/// Builds the bone tree from the document's nodes.
pub fn skeleton(document: &gltf::Document) -> Result<Nodes, ImportError> {
    let count = document.nodes().len();
    if count == 0 {
        return Err(ImportError::NoNodes);
    }
    // A node as messages name it (`#3 "Hips"`).
    let node_label = |i: usize| label(i, document.nodes().nth(i).and_then(|n| n.name()));

    let mut builder = SkeletonBuilder::new();
    let mut with_mesh = Vec::new();
    for node in document.nodes() {
        let i = node.index();
        if node.mesh().is_some() {
            with_mesh.push(i);
        }
        let rest =
            rest_transform(&node).map_err(|problem| ImportError::Node { node: node_label(i), problem })?;
        builder.bone_with(node.name().map_or_else(|| format!("node{i}"), str::to_string), rest);
    }

    // children[0] is the first child; each later child is the sibling of the one before.
    let mut parent: Vec<Option<usize>> = vec![None; count];
    for node in document.nodes() {
        let mut before = None;
        for child in node.children().map(|c| c.index()) {
            if child == node.index() {
                let problem = "it is its own child: the children lists form a cycle".into();
                return Err(ImportError::Node { node: node_label(child), problem });
            }
            if parent[child] == Some(node.index()) {
                let problem = format!("node {} lists it twice as a child", node_label(node.index()));
                return Err(ImportError::Node { node: node_label(child), problem });
            }
            if let Some(first) = parent[child] {
                let problem = format!(
                    "it is a child of both node {} and node {} (a node has one parent)",
                    node_label(first),
                    node_label(node.index())
                );
                return Err(ImportError::Node { node: node_label(child), problem });
            }
            parent[child] = Some(node.index());
            match before {
                None => builder.set_first_child(node.index(), child),
                Some(before) => builder.set_sibling(before, child),
            };
            before = Some(child);
        }
    }

    // Every node without a parent (in a scene or not) hangs under one synthetic root, linked the same way.
    let roots: Vec<BoneId> = (0..count).filter(|&i| parent[i].is_none()).collect();
    if roots.len() > 1 {
        let root = builder.bone_with(SYNTHETIC_ROOT, Trs::IDENTITY);
        builder.set_first_child(root, roots[0]);
        for pair in roots.windows(2) {
            builder.set_sibling(pair[0], pair[1]);
        }
    }
    check_ancestry(&parent, roots.len() > 1)
        .map_err(|(i, problem)| ImportError::Node { node: node_label(i), problem })?;
    // With one parent each, no cycle and the depth checked, this is a tree; `build` checks again.
    let skeleton =
        builder.build().map_err(|e| ImportError::Node { node: "tree".into(), problem: e.to_string() })?;
    let rest_world = check_rest_world(&skeleton, &parent)
        .map_err(|(i, problem)| ImportError::Node { node: node_label(i), problem })?;
    let shown = document.default_scene().or_else(|| document.scenes().next());
    let in_scene = scene_nodes(shown.as_ref(), document);
    let scene = shown.map(|s| label(s.index(), s.name()));
    Ok(Nodes { skeleton, in_scene, scene, rest_world, with_mesh })
}

/// A node's rest transform as translation, rotation, scale; an error if it has no usable one.
fn rest_transform(node: &gltf::Node) -> Result<Trs, String> {
    match node.transform() {
        gltf::scene::Transform::Decomposed { translation, rotation, scale } => {
            if translation.iter().chain(&rotation).chain(&scale).any(|x| !x.is_finite()) {
                return Err("its translation, rotation or scale holds a NaN or infinite number".into());
            }
            let rotation = Quat::from_array(rotation);
            // Unit quaternions only; a file's rounding is forgiven, a zero is not.
            if rotation.length() < 1e-6 {
                return Err("its rotation is the zero quaternion; it must have length 1".into());
            }
            Ok(Trs {
                translation: Vec3::from(translation),
                rotation: rotation.normalize(),
                scale: Vec3::from(scale),
            })
        }
        gltf::scene::Transform::Matrix { matrix } => {
            let m = Mat4::from_cols_array_2d(&matrix);
            if !m.is_finite() {
                return Err("its matrix holds a NaN or infinite number".into());
            }
            let trs = Trs::from_mat4(m);
            // Splitting loses shear; put together again, it must give the same matrix.
            let size = m.to_cols_array().iter().fold(1.0f32, |a, x| a.max(x.abs()));
            if !trs.to_mat4().abs_diff_eq(m, 1e-4 * size) || !trs.rotation.is_finite() {
                return Err("its matrix is not translation x rotation x scale (glTF forbids shear)".into());
            }
            Ok(trs)
        }
    }
}

/// Every node's rest world transform must fit in 32-bit floats (largest about 3.4e38). Each node's
/// numbers may be finite while their product is not: two nodes each moved 3e38 along x put the
/// second at 6e38, which is infinity. The dump writes these, and a still model shows them every
/// frame, so a model whose rest pose overflows is refused here, naming the first node (by index)
/// whose world overflows while its parent's does not: where the numbers outgrow the floats. When
/// they all fit, the rest world transforms are returned, for the meshes.
fn check_rest_world(skeleton: &Skeleton, parent: &[Option<usize>]) -> Result<Vec<Mat4>, (usize, String)> {
    // A local transform that overflows makes its world overflow too (inf times anything, 0
    // included, is not finite), so the world transforms alone tell.
    let world = skeleton.rest_world();
    let overflows = |i: usize| !world[i].is_finite();
    match (0..parent.len()).find(|&i| overflows(i) && parent[i].is_none_or(|p| !overflows(p))) {
        None => Ok(world),
        Some(i) => Err((
            i,
            "its rest world transform (its own times its ancestors') overflows 32-bit floats; \
             the file's numbers are too large, scale the model down"
                .into(),
        )),
    }
}

/// Follows every node's parent links up to a root: a node whose walk never ends sits in a cycle,
/// and one deeper than [`MAX_DEPTH`] bones, counting the root (the synthetic one too), is too deep.
/// Each node's depth is remembered, so every link is followed once.
fn check_ancestry(parent: &[Option<usize>], extra_root: bool) -> Result<(), (usize, String)> {
    let mut depth: Vec<Option<u32>> = vec![None; parent.len()];
    let mut path = Vec::new();
    for start in 0..parent.len() {
        path.clear();
        let mut at = start;
        let above = loop {
            if let Some(d) = depth[at] {
                break d as usize;
            }
            if path.len() > parent.len() {
                return Err((start, "it is its own ancestor: the children lists form a cycle".into()));
            }
            path.push(at);
            match parent[at] {
                Some(p) => at = p,
                None => break usize::from(extra_root),
            }
        };
        for (k, &node) in path.iter().rev().enumerate() {
            // Stored only up to MAX_DEPTH + 1: the walk stops there.
            depth[node] = Some((above + k + 1) as u32);
            if above + k + 1 > MAX_DEPTH {
                let problem = format!(
                    "it lies deeper than {MAX_DEPTH} bones, counting the root, deeper than this program walks"
                );
                return Err((node, problem));
            }
        }
    }
    Ok(())
}

/// Which nodes the shown scene holds: those reachable from its root nodes (every node when the
/// file has no scene).
fn scene_nodes(scene: Option<&gltf::Scene>, document: &gltf::Document) -> Vec<bool> {
    let count = document.nodes().len();
    let Some(scene) = scene else {
        return vec![true; count];
    };
    let mut in_scene = vec![false; count];
    let mut stack: Vec<usize> = scene.nodes().map(|n| n.index()).collect();
    while let Some(i) = stack.pop() {
        // The tree was checked, so each node is met once; the test keeps that true regardless.
        if !std::mem::replace(&mut in_scene[i], true)
            && let Some(node) = document.nodes().nth(i)
        {
            stack.extend(node.children().map(|c| c.index()));
        }
    }
    in_scene
}
