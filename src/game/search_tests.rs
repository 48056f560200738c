//! The search on the real games, where results are known exactly: solved small boards and Pons'
//! Connect-4 positions.

use crate::game::connectx::{ConnectX, CxKnowledge};
use crate::game::mnk::{Mnk, MnkKnowledge};
use crate::game::Game;
use crate::search::{Knowledge, Limits, RootKnowledge, Score, SearchResult, Searcher, WIN, WIN_BOUND};

fn solve<G: Game, K: RootKnowledge<G>>(game: &mut G, know: &K) -> SearchResult<G::Move> {
    let mut s = Searcher::new(16);
    let r = s.search(game, know, &Limits::infinite());
    assert!(r.proved, "an unlimited search on a small board ends in a proof: depth {} score {}", r.depth, r.score);
    r
}

#[test]
fn solved_mnk_values() {
    // (M, N, K, first player's result: 1 win, 0 draw)
    for (m, n, k, value) in
        [(3, 3, 3, 0), (3, 4, 3, 1), (4, 3, 3, 1), (4, 4, 3, 1), (4, 4, 4, 0), (2, 2, 2, 1), (3, 3, 4, 0)]
    {
        let mut g = Mnk::new(m, n, k, &[]).unwrap();
        let r = solve(&mut g, &MnkKnowledge::new());
        assert_eq!(r.score.signum(), value, "{m}x{n}x{k}: score {}", r.score);
    }
}

#[test]
fn the_first_player_wins_4x4x3_in_three_of_its_moves() {
    let mut g = Mnk::new(4, 4, 3, &[]).unwrap();
    let r = solve(&mut g, &MnkKnowledge::new());
    // Its third stone is ply 5 from the start.
    assert_eq!(r.score, WIN - 5);
}

/// Plays 1-based column digits.
fn connect4(moves: &str) -> ConnectX {
    let mut g = ConnectX::new(6, 7, 4).unwrap();
    for ch in moves.chars() {
        let col = ch.to_digit(10).unwrap() - 1;
        assert!(g.is_legal(col));
        g.play(col);
    }
    g
}

/// Our proved score in Pons' convention: 22 minus the stones the winner has placed.
fn pons_score(moves_played: usize, score: Score) -> i32 {
    if score == 0 {
        return 0;
    }
    let plies = (WIN - score.abs()) as usize;
    let winner_stones = (moves_played + plies).div_ceil(2);
    (22 - winner_stones as i32) * score.signum()
}

#[test]
fn exact_scores_of_connect4_positions() {
    let sets = [
        include_str!("../../tests/data/connect4/Test_L3_R1.head60"),
        include_str!("../../tests/data/connect4/Test_L2_R1.head30"),
    ];
    for line in sets.iter().flat_map(|s| s.lines()).filter(|l| !l.is_empty()) {
        let (moves, expected) = line.split_once(' ').unwrap();
        let mut g = connect4(moves);
        let r = solve(&mut g, &CxKnowledge::new());
        assert_eq!(pons_score(moves.len(), r.score), expected.parse::<i32>().unwrap(), "{moves}");
    }
}

#[test]
fn takes_a_win_and_blocks_a_loss() {
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    // First: row 7, columns 3..6 (four); second: scattered.
    for (r, c) in [(7, 3), (0, 0), (7, 4), (0, 14), (7, 5), (14, 0), (7, 6)] {
        g.play((r * 15 + c) as u32);
    }
    // Second to move must block one end; the other end wins for the first player regardless
    // (an open four): the search proves the loss.
    let mut s = Searcher::new(16);
    let r = s.search(&mut g, &MnkKnowledge::new(), &Limits::depth(6));
    assert!(r.score <= -WIN_BOUND, "an open four is lost: {}", r.score);
    assert!([7 * 15 + 2, 7 * 15 + 7].contains(&r.best));
    g.play(r.best);
    let r = s.search(&mut g, &MnkKnowledge::new(), &Limits::depth(2));
    assert_eq!(r.score, WIN - 1);
    g.play(r.best);
    assert_eq!(g.outcome(), Some(crate::game::Outcome::Win(crate::game::Side::First)));
}

#[test]
fn search_leaves_the_game_unchanged_and_respects_the_depth_cap() {
    let mut g = ConnectX::new(6, 7, 4).unwrap();
    g.play(3);
    let h = g.hash();
    let mut s = Searcher::new(1);
    let r = s.search(&mut g, &CxKnowledge::new(), &Limits::depth(3));
    assert_eq!(r.depth, 3);
    assert_eq!(g.hash(), h);
    assert_eq!(g.moves_played(), 1);
    assert!(g.is_legal(r.best));
}

#[test]
fn parallel_search_proves_the_same_values() {
    for (m, n, k, value) in [(3, 3, 3, 0), (4, 4, 3, 1), (4, 4, 4, 0)] {
        let mut g = Mnk::new(m, n, k, &[]).unwrap();
        let mut s = Searcher::new(16);
        let r = s.search_parallel(&mut g, &MnkKnowledge::new(), &Limits::infinite(), 2);
        assert!(r.proved);
        assert_eq!(r.score.signum(), value, "{m}x{n}x{k}");
        assert_eq!(g.moves_played(), 0);
    }
    let line = include_str!("../../tests/data/connect4/Test_L2_R1.head30").lines().next().unwrap();
    let (moves, expected) = line.split_once(' ').unwrap();
    let mut g = connect4(moves);
    let r = Searcher::new(16).search_parallel(&mut g, &CxKnowledge::new(), &Limits::infinite(), 3);
    assert_eq!(pons_score(moves.len(), r.score), expected.parse::<i32>().unwrap());
}

#[test]
fn a_settled_draw_is_played_for_the_opponents_errors() {
    // Tic-tac-toe is a draw. Under a clock the engine opens in a corner: it keeps the draw, and
    // 7 of the opponent's 8 replies lose (only the centre holds), more than after any other move.
    let mut g = Mnk::new(3, 3, 3, &[]).unwrap();
    let limits = Limits::per_move(std::time::Instant::now(), std::time::Duration::from_secs(2), Default::default());
    let r = Searcher::new(4).search(&mut g, &MnkKnowledge::new(), &limits);
    assert!(r.proved && r.score == 0);
    assert!([0, 2, 6, 8].contains(&r.best), "a corner, got {}", r.best);
    // Solving (no clock) is unaffected: the first drawing move in search order stands.
    let r = Searcher::new(4).search(&mut g, &MnkKnowledge::new(), &Limits::infinite());
    assert_eq!(r.score, 0);
}

#[test]
fn a_draw_proved_by_the_exact_solver_is_played_for_traps() {
    // With the m,n,k solver in play, tic-tac-toe is proved a draw at the root and every first
    // move keeps it. After a corner the solver proves 7 of O's 8 replies lost (only the centre
    // holds), after the centre or an edge 4: the trap is a corner.
    for hash in [1, 16] {
        let mut g = Mnk::new(3, 3, 3, &[]).unwrap();
        let know = MnkKnowledge::with_solver(&g, std::sync::Arc::new(crate::game::mnk::solver::BoundTable::new(hash)));
        let limits = Limits::per_move(std::time::Instant::now(), std::time::Duration::from_secs(2), Default::default());
        let r = Searcher::new(4).search(&mut g, &know, &limits);
        assert!([0, 2, 6, 8].contains(&r.best), "a corner, got {}", r.best);
    }
}

#[test]
fn a_double_threat_at_the_horizon_scores_as_the_win() {
    // 15x15x5: X's two stones on row 7 and two on column 8 meet at 7,8: that stone makes two
    // threes at once, and no one stone of O spoils both. The win takes 5 plies (O's reply, X's
    // open four, O's block, X's five); a two-ply search sees it only because its leaf, X to move
    // with a stone that makes two threats, scores as the win. The quiet-win check sees the
    // double three itself (O has no four to make): 5 plies.
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    for (r, c) in [(7, 5), (0, 0), (7, 6), (0, 14), (5, 8), (14, 0), (6, 8), (14, 14)] {
        g.play((r * 15 + c) as u32);
    }
    let know = MnkKnowledge::new();
    assert_eq!(know.quiet_win(&g), Some(5), "a double three, no open four yet");
    let r = Searcher::new(1).search(&mut g, &know, &Limits::depth(2));
    assert!(r.score >= WIN_BOUND, "{r:?}");
    g.play(r.best);
    g.play(0);
    assert_eq!(know.quiet_win(&g), Some(3), "after {}", g.format_move(r.best));
}

#[test]
fn a_win_by_three_fours_is_seen_from_depth_one() {
    // 15x15x5, X to move. (7,5) makes a four on row 7 (O holds (7,1)), O blocks (7,6); (10,5)
    // a four on column 5 (O holds (6,5)), O blocks (11,5); (9,6) an open four on the diagonal
    // (12,3)-(8,7). No stone makes two threats before the third: one ply of search sees the
    // win only through the fours it searches past the horizon.
    let x = [(7, 2), (7, 3), (7, 4), (8, 5), (9, 5), (11, 4), (12, 3)];
    let o = [(7, 1), (6, 5), (0, 0), (0, 14), (14, 0), (14, 14), (0, 7)];
    let mut g = Mnk::new(15, 15, 5, &[]).unwrap();
    for (a, b) in x.iter().zip(&o) {
        g.play((a.0 * 15 + a.1) as u32);
        g.play((b.0 * 15 + b.1) as u32);
    }
    let r = Searcher::new(16).search(&mut g, &MnkKnowledge::new(), &Limits::depth(1));
    assert_eq!(r.score, WIN - 7, "the win in 7 plies: {:?}", r.pv);
    // The fours above start it, or (7,6), the other four on row 7, whose line the quiet-win
    // check sees: either way O's block is forced and X then has a forced win by threats.
    assert!([7 * 15 + 5, 7 * 15 + 6].contains(&r.best), "{}", g.format_move(r.best));
    g.play(r.best);
    let mut block = Vec::new();
    assert!(MnkKnowledge::new().candidates(&g, &mut block), "a four: only its block");
    assert_eq!(block.len(), 1, "a four: one block");
    g.play(block[0].mv);
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let (verdict, _) = g.vct_dfpn(&crate::game::mnk::ThreatMemo::default(), g.to_move(), far, 1_000_000);
    assert_eq!(verdict, crate::search::dfpn::Verdict::Proved);
}
