use super::*;
use crate::search::{Candidate, Knowledge};

fn drop_all(g: &mut ConnectX, cols: &[u32]) {
    for &c in cols {
        assert!(g.is_legal(c), "column {c}");
        g.play(c);
    }
}

#[test]
fn pieces_fall_to_the_highest_free_row() {
    let mut g = ConnectX::new(6, 7, 4).unwrap();
    drop_all(&mut g, &[3, 3]);
    assert_eq!(g.lines().cell(5 * 7 + 3), 1, "first piece at the bottom row (row 5)");
    assert_eq!(g.lines().cell(4 * 7 + 3), 2);
    assert_eq!(g.height(3), 2);
    g.undo();
    assert_eq!(g.height(3), 1);
    assert_eq!(g.lines().cell(4 * 7 + 3), 0);
}

#[test]
fn full_columns_and_off_board_columns_are_refused() {
    let mut g = ConnectX::new(2, 3, 3).unwrap();
    drop_all(&mut g, &[0, 0]);
    assert!(!g.is_legal(0));
    assert!(g.parse_move("3").is_err());
    assert!(g.parse_move("-1").is_err());
    assert!(g.parse_move("x").is_err());
    assert_eq!(g.parse_move(" 2 ").unwrap(), 2);
}

#[test]
fn vertical_horizontal_and_diagonal_wins() {
    let cases: [(&[u32], Side); 3] = [
        (&[0, 1, 0, 1, 0, 1, 0], Side::First),
        (&[0, 0, 1, 1, 2, 2, 3], Side::First),
        // Second player's diagonal rising to the right.
        (&[0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], Side::First),
    ];
    for (moves, winner) in cases {
        let mut g = ConnectX::new(6, 7, 4).unwrap();
        drop_all(&mut g, &moves[..moves.len() - 1]);
        assert_eq!(g.outcome(), None, "{moves:?}");
        drop_all(&mut g, &moves[moves.len() - 1..]);
        assert_eq!(g.outcome(), Some(Outcome::Win(winner)), "{moves:?}");
    }
}

#[test]
fn never_drops_under_an_enemy_threat_unless_forced() {
    let mut g = ConnectX::new(6, 7, 4).unwrap();
    drop_all(&mut g, &[6, 0, 6, 1, 5, 2, 0, 6, 1, 5, 2]);
    // First player (X) now has row 4 cells at columns 0, 1, 2; (4,3) is its threat and column 3
    // is empty, so the second player must avoid column 3.
    assert!(g.lines().is_threat(Side::First, 4 * 7 + 3));
    let mut c: Vec<Candidate<Column>> = Vec::new();
    CxKnowledge::new().candidates(&g, &mut c);
    assert!(!c.is_empty());
    assert!(c.iter().all(|c| c.mv != 3), "{c:?}");
}
