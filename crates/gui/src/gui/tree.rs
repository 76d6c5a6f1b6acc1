//! The move tree behind the board: every line played from the start position, so that a
//! move played from an earlier position starts a variation instead of deleting the rest
//! of the game. A node's first child continues the main line at that point; the others
//! are its variations, in the order they were played. Nothing leaves the tree unless
//! [`Tree::remove`] is asked for.

use crate::board::Move;

/// The address of a node: the child index taken at each ply from the start (the empty
/// path is the start position). Index 0 is always the main continuation.
pub type NodePath = Vec<usize>;

/// A node: the moves played from its position, each with what followed it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tree {
    children: Vec<Branch>,
}

#[derive(Clone, Debug, PartialEq)]
struct Branch {
    mv: Move,
    tree: Tree,
}

impl Tree {
    /// The node at `path`, if there is one.
    pub fn node(&self, path: &[usize]) -> Option<&Tree> {
        path.iter()
            .try_fold(self, |node, &i| node.children.get(i).map(|b| &b.tree))
    }

    fn node_mut(&mut self, path: &[usize]) -> Option<&mut Tree> {
        path.iter().try_fold(self, |node, &i| {
            node.children.get_mut(i).map(|b| &mut b.tree)
        })
    }

    /// The moves played from this node, main continuation first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.children.iter().map(|b| b.mv)
    }

    /// The child after move `i` of this node.
    pub fn child(&self, i: usize) -> Option<&Tree> {
        self.children.get(i).map(|b| &b.tree)
    }

    /// No move has been played from this node.
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }

    /// The moves along `path`, if the tree holds it.
    pub fn line(&self, path: &[usize]) -> Option<Vec<Move>> {
        let mut node = self;
        let mut moves = Vec::with_capacity(path.len());
        for &i in path {
            let branch = node.children.get(i)?;
            moves.push(branch.mv);
            node = &branch.tree;
        }
        Some(moves)
    }

    /// The path of a line of moves, if the tree holds that line.
    pub fn find(&self, moves: &[Move]) -> Option<NodePath> {
        let mut node = self;
        let mut path = Vec::with_capacity(moves.len());
        for &mv in moves {
            let i = node.children.iter().position(|b| b.mv == mv)?;
            path.push(i);
            node = &node.children[i].tree;
        }
        Some(path)
    }

    /// The path of the longest beginning of `moves` that the tree holds.
    pub fn find_prefix(&self, moves: &[Move]) -> NodePath {
        let mut node = self;
        let mut path = Vec::new();
        for &mv in moves {
            let Some(i) = node.children.iter().position(|b| b.mv == mv) else {
                break;
            };
            path.push(i);
            node = &node.children[i].tree;
        }
        path
    }

    /// Adds `mv` after the node at `path` (or finds it there); its child index. `None`
    /// when there is no such node.
    pub fn add(&mut self, path: &[usize], mv: Move) -> Option<usize> {
        let node = self.node_mut(path)?;
        if let Some(i) = node.children.iter().position(|b| b.mv == mv) {
            return Some(i);
        }
        node.children.push(Branch {
            mv,
            tree: Tree::default(),
        });
        Some(node.children.len() - 1)
    }

    /// Extends `path` through main continuations to the end of its line.
    pub fn extend_main(&self, path: &mut NodePath) {
        let mut node = self.node(path);
        while let Some(next) = node.and_then(|n| n.child(0)) {
            path.push(0);
            node = Some(next);
        }
    }

    /// Removes the node at `path` and everything played after it; the removed move.
    /// `None` for the start (empty path) or a path the tree does not hold.
    pub fn remove(&mut self, path: &[usize]) -> Option<Move> {
        let (&last, parent) = path.split_last()?;
        let node = self.node_mut(parent)?;
        (last < node.children.len()).then(|| node.children.remove(last).mv)
    }

    /// Promotes the variation that holds the node at `path`: the deepest move on the path
    /// that is not a main continuation becomes the main continuation at its node. `Err`
    /// when the path is the main line already or not in the tree.
    pub fn promote(&mut self, path: &[usize]) -> Result<(), String> {
        if self.node(path).is_none() {
            return Err("no such move".into());
        }
        let Some(depth) = path.iter().rposition(|&i| i != 0) else {
            return Err("that move is on the main line already".into());
        };
        let node = self
            .node_mut(&path[..depth])
            .ok_or_else(|| "no such move".to_string())?;
        let branch = node.children.remove(path[depth]);
        node.children.insert(0, branch);
        Ok(())
    }

    /// Nodes in the tree, the start excluded.
    pub fn size(&self) -> usize {
        self.children.iter().map(|b| 1 + b.tree.size()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::movegen::parse_move;

    fn mv(pos: &Position, text: &str) -> Move {
        parse_move(pos, text).unwrap()
    }

    #[test]
    fn variations_promote_and_remove() {
        let start = Position::start();
        let a = mv(&start, "22-18");
        let b = mv(&start, "22-19");
        let after_a = start.play(a);
        let a2 = mv(&after_a, "11-14");
        let mut tree = Tree::default();
        assert_eq!(tree.add(&[], a), Some(0));
        assert_eq!(tree.add(&[0], a2), Some(0));
        assert_eq!(tree.add(&[], b), Some(1), "a variation");
        assert_eq!(tree.add(&[], a), Some(0), "played again: found, not added");
        assert_eq!(tree.add(&[5], a), None);
        assert_eq!(tree.size(), 3);
        let mut path = vec![];
        tree.extend_main(&mut path);
        assert_eq!(path, [0, 0]);
        assert_eq!(tree.line(&path), Some(vec![a, a2]));
        assert_eq!(tree.find(&[b]), Some(vec![1]));
        assert_eq!(tree.find_prefix(&[a, b]), vec![0]);
        assert!(tree.promote(&[0, 0]).is_err(), "main line");
        tree.promote(&[1]).unwrap();
        assert_eq!(tree.moves().collect::<Vec<_>>(), [b, a]);
        assert_eq!(tree.find(&[a, a2]), Some(vec![1, 0]));
        assert_eq!(tree.remove(&[1]), Some(a));
        assert_eq!(tree.size(), 1);
        assert_eq!(tree.remove(&[]), None);
        assert_eq!(tree.remove(&[3]), None);
    }
}
