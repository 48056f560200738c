//! The protocol as protocol.md specifies it, checked on the real binary: replies, errors that
//! leave the state unchanged, `position`, `set`, several games per process, end of input, `quit`,
//! and the cleanliness of stdout.

mod common;

use common::*;
use std::time::{Duration, Instant};

const T: &str = "0.4";

#[test]
fn help_lists_the_commands_on_one_line() {
    let mut e = Engine::spawn();
    let help = e.ask("help");
    for word in ["init", "go", "move", "position", "set", "quit", "mnk", "cx"] {
        assert!(help.contains(word), "{help}");
    }
    assert!(help.starts_with("help: "), "{help}");
    e.expect_error("help me");
}

#[test]
fn numbers_with_a_sign_are_errors() {
    let mut e = Engine::spawn();
    for line in [
        "init +3 3 3 true 1",
        "init 3 3 3 true +1",
        "init 3 3 3 true -1",
        "set margin +5",
        "set hash +8",
        "set seed -1",
    ] {
        e.expect_error(line);
    }
    e.expect_ok("set margin 5");
    e.expect_ok("set level easy");
    e.expect_ok("set level MAX");
    e.expect_error("set level extreme");
}

#[test]
fn name_and_about() {
    let mut e = Engine::spawn();
    let name = e.ask("name");
    let parts: Vec<&str> = name.split(' ').collect();
    assert_eq!(parts.len(), 3, "{name}");
    assert_eq!(&parts[..2], &["name", "boardbot"]);
    assert!(parts[2].split('.').count() >= 2 && parts[2].chars().next().unwrap().is_ascii_digit(), "{name}");
    let about = e.ask("about");
    assert!(about.starts_with("about ") && about.len() > 6, "{about}");
    // Keywords are case-insensitive; extra arguments are an error.
    assert!(e.ask("NAME").starts_with("name boardbot "));
    e.expect_error("name please");
    e.expect_error("about x");
}

#[test]
fn blank_lines_get_no_reply() {
    let mut e = Engine::spawn();
    e.send_raw(b"\n   \n\t\n \r\n");
    e.assert_in_sync();
    e.expect_ok("init 3 3 3 true 1");
    e.send("");
    e.assert_in_sync();
}

#[test]
fn crlf_line_endings_and_extra_spaces_are_accepted() {
    let mut e = Engine::spawn();
    e.send_raw(b"init 3 3 3 true 1\r\n");
    assert_eq!(e.recv(), "ok");
    e.send_raw(b"  position\t0,0  1,0 0,1 1,1 \r\n");
    assert_eq!(e.recv(), "ok");
    e.send_raw(b"go\r\n");
    assert_eq!(e.recv(), "0 2");
}

/// Commands may be sent ahead of the replies; replies come in order, one per command.
#[test]
fn pipelined_commands_get_replies_in_order() {
    let mut e = Engine::spawn();
    e.send_raw(
        b"name\nbogus\ninit 3 3 3 true 1\n\nposition 0,0 1,0 0,1 1,1\ngo\nmove 2 2\ninit cx 6 7 4 false 1\nmove 3\n",
    );
    assert!(e.recv().starts_with("name boardbot "));
    assert!(e.recv().starts_with("error "));
    assert_eq!(e.recv(), "ok");
    assert_eq!(e.recv(), "ok");
    assert_eq!(e.recv(), "0 2");
    assert!(e.recv().starts_with("error "));
    assert_eq!(e.recv(), "ok");
    let mut b = Board::cx(6, 7, 4);
    b.play(3);
    b.play_reply(&e.recv());
    e.assert_in_sync();
}

#[test]
fn commands_before_init_are_errors() {
    let mut e = Engine::spawn();
    e.expect_error("go");
    e.expect_error("move 0 0");
    e.expect_error("move 3");
    e.expect_error("position");
    e.expect_error("position 0,0");
    // set works without a game.
    e.expect_ok("set seed 5");
    e.expect_ok("init 3 3 3 true 1");
    let mut b = Board::mnk(3, 3, 3);
    b.play_reply(&e.ask("go"));
}

#[test]
fn unknown_and_malformed_commands_are_errors() {
    let mut e = Engine::spawn();
    for line in [
        "frobnicate",
        "hello world",
        "go now",
        "move",
        "set",
        "set hash",
        "set hash 1 2",
        "quit now",
        "ok",
        "1 1",
        "\u{0}\u{1}\u{7f} garbage",
        "ünïcödé ☃",
        "init\u{0}3 3 3 true 1",
    ] {
        e.expect_error(line);
    }
}

#[test]
fn bad_init_arguments_are_errors_and_keep_the_game() {
    let mut e = Engine::spawn();
    let mut b = Board::mnk(3, 3, 3);
    e.expect_ok("init 3 3 3 false 1");
    b.play(4);
    b.play_reply(&e.ask("move 1 1"));
    for line in [
        "init",
        "init 3 3",
        "init 3 3 3",
        "init 3 3 3 true",
        "init 0 3 3 true 1",
        "init 3 0 3 true 1",
        "init 3 3 0 true 1",
        "init -3 3 3 true 1",
        "init 3.5 3 3 true 1",
        "init 3 3 3 maybe 1",
        "init 3 3 3 yes 1",
        "init 3 3 3 true 0",
        "init 3 3 3 true -1",
        "init 3 3 3 true nan",
        "init 3 3 3 true inf",
        "init 3 3 3 true 86400.5",
        "init 3 3 3 true 1e9",
        "init 3 3 3 true abc",
        "init 3 3 3 true 1 extra",
        "init 3 3 3 true 1 blocked 1-1",
        "init 3 3 3 true 1 blocked 3,0",
        "init 3 3 3 true 1 blocked 0,3",
        "init 3 3 3 true 1 blocked 1,x",
        "init cx 6 7 4 true 1 blocked 0,0",
        "init go 6 7 4 true 1",
        "init cx 6 7",
        "init 99999999999999999999 3 3 true 1",
        "init 1001 3 3 true 1",
        "init 3 1001 3 true 1",
        "init 3 3 256 true 1",
        "init cx 2000 7 4 true 1",
    ] {
        e.expect_error(line);
    }
    // The game goes on where it was.
    play_out(&mut e, &mut b, false, &mut tactical_opponent(1));
}

#[test]
fn accepted_init_forms() {
    let mut e = Engine::spawn();
    for (line, kind) in [
        ("init 3 3 3 true 1", Kind::Mnk),
        ("init mnk 3 3 3 1 0.5", Kind::Mnk),
        ("INIT MNK 3 3 3 FIRST 2", Kind::Mnk),
        ("init cx 6 7 4 true 1", Kind::Cx),
        ("init connectx 6 7 4 first 0.25", Kind::Cx),
        ("init  3   3 3\ttrue  1  ", Kind::Mnk),
        ("init 3 3 3 true 1 blocked", Kind::Mnk),
    ] {
        e.expect_ok(line);
        let mut b = if kind == Kind::Mnk { Board::mnk(3, 3, 3) } else { Board::cx(6, 7, 4) };
        b.play_reply(&e.ask("go"));
    }
    // The longest TIMEOUT (no move is asked for here: it would think for hours).
    e.expect_ok("init CX 6 7 4 TRUE 86400");
    e.expect_ok("init 3 3 3 true 86400.0");
    for line in ["init 3 3 3 false 1", "init 3 3 3 0 1", "init 3 3 3 second 1", "init 3 3 3 False 1"] {
        e.expect_ok(line);
        // The engine is second: an opponent move gets a move back.
        let mut b = Board::mnk(3, 3, 3);
        b.play(0);
        b.play_reply(&e.ask("move 0 0"));
    }
}

#[test]
fn illegal_mnk_moves_are_errors_and_keep_the_game() {
    let mut e = Engine::spawn();
    let mut b = Board::mnk(5, 5, 4);
    e.expect_ok("init 5 5 4 false 0.4");
    b.play(12);
    let reply = e.ask("move 2 2");
    let engine_mv = b.play_reply(&reply);
    let occupied_by_engine = b.text(engine_mv);
    for line in [
        "move 2 2".to_string(),
        "move 2,2".to_string(),
        format!("move {occupied_by_engine}"),
        "move 5 0".into(),
        "move 0 5".into(),
        "move 5,5".into(),
        "move -1 0".into(),
        "move 0 -1".into(),
        "move 1".into(),
        "move 1 2 3".into(),
        "move a b".into(),
        "move 1.0 2".into(),
        "move 99999999999999999999 0".into(),
        "move 3".into(),
        "go now".into(),
    ] {
        e.expect_error(&line);
    }
    // Still the opponent's turn, same board: play on to the end.
    play_out(&mut e, &mut b, false, &mut tactical_opponent(2));
}

#[test]
fn move_on_the_engines_turn_is_an_error() {
    let mut e = Engine::spawn();
    let mut b = Board::mnk(3, 3, 3);
    e.expect_ok("init 3 3 3 true 1");
    let err = e.expect_error("move 1 1");
    assert!(err.contains("turn"), "{err}");
    b.play_reply(&e.ask("go"));
    play_out(&mut e, &mut b, true, &mut random_opponent(4));
}

#[test]
fn illegal_connectx_moves_are_errors_and_keep_the_game() {
    let mut e = Engine::spawn();
    let mut b = Board::cx(6, 7, 4);
    e.expect_ok("init cx 6 7 4 true 0.4");
    // Fill column 3 (alternating, so nobody gets four in it); then the engine moves (as First).
    for _ in 0..6 {
        b.play(3);
    }
    e.expect_ok("position 3 3 3 3 3 3");
    b.play_reply(&e.ask("go"));
    for line in ["move 3", "move 7", "move 100", "move -1", "move x", "move 1 2", "move 1,2", "move 2.0", "move 0x1"] {
        e.expect_error(line);
    }
    play_out(&mut e, &mut b, true, &mut tactical_opponent(5));
    // A full column never comes back as a reply either (checked by the referee above).
    assert!(!b.legal().contains(&3));
}

#[test]
fn move_that_ends_the_game_gets_end() {
    // First (the opponent) completes a row: "end first wins".
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 false 1");
    e.expect_ok("position 0,0 1,0 0,1 1,1");
    e.expect("move 0 2", "end first wins");
    e.expect_error("move 2 2");
    e.expect_error("go");

    // Second (the opponent) completes a row.
    e.expect_ok("init 3 3 3 true 1");
    e.expect_ok("position 0,0 1,0 0,1 1,1 2,2");
    e.expect("move 1 2", "end second wins");

    // The last free cell: a draw. X O X / X O O / O X X.
    e.expect_ok("init 3 3 3 false 1");
    e.expect_ok("position 0,0 0,1 0,2 1,1 1,0 1,2 2,1 2,0");
    e.expect("move 2 2", "end draw");
    e.expect_error("move 2 2");

    // Connect-X.
    e.expect_ok("init cx 6 7 4 false 1");
    e.expect_ok("position 0 1 0 1 0 1");
    e.expect("move 0", "end first wins");
    e.expect_ok("init cx 2 2 3 true 1");
    e.expect_ok("position 0 0 1");
    e.expect("move 1", "end draw");
}

#[test]
fn after_game_over_moves_and_go_are_errors() {
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 true 1");
    e.expect_ok("position 0,0 1,0 0,1 1,1");
    e.expect("go", "0 2");
    for line in ["move 2 2", "move 2,2", "go", "move 0 2"] {
        let err = e.expect_error(line);
        assert!(err.contains("over"), "{err}");
    }
    // position starts from the beginning again: the game can be replayed.
    e.expect_ok("position 0,0 1,0");
    let mut b = Board::mnk(3, 3, 3);
    b.play(0);
    b.play(3);
    play_out(&mut e, &mut b, true, &mut random_opponent(9));
}

#[test]
fn very_long_and_garbage_lines_are_errors() {
    let mut e = Engine::spawn();
    let mut b = Board::mnk(7, 7, 5);
    e.expect_ok("init 7 7 5 false 0.4");
    b.play(24);
    b.play_reply(&e.ask("move 3 3"));
    // The reason does not echo the line whole.
    let reply = e.expect_error(&"x".repeat(1 << 20));
    assert!(reply.len() < 300, "a {} byte reply", reply.len());
    e.expect_error(&format!("move {}", "1 ".repeat(100_000)));
    e.expect_error(&format!("position {}", "0,0 ".repeat(50_000)));
    e.expect_error(&format!("init 7 7 5 true 1 blocked {}", "9,9 ".repeat(10_000)));
    e.expect_error("\u{1b}[2J\u{7}\u{8}");
    e.expect_error_raw(b"\x00\x00\x00\n");
    play_out(&mut e, &mut b, false, &mut tactical_opponent(6));
}

/// A line that is not UTF-8 is malformed input like any other: one `error` line, and the
/// session goes on.
#[test]
fn invalid_utf8_line_is_an_error_and_the_session_goes_on() {
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 false 1");
    e.expect_error_raw(b"\xff\xfe garbage \xc3\x28\n");
    let mut b = Board::mnk(3, 3, 3);
    play_out(&mut e, &mut b, false, &mut random_opponent(1));
}

#[test]
fn several_games_in_one_process_switching_kinds() {
    let mut e = Engine::spawn();
    let boards = [
        (Board::mnk(3, 3, 3), true),
        (Board::cx(5, 4, 4), false),
        (Board::mnk(7, 7, 5), false),
        (Board::cx(6, 7, 4), true),
        (Board::mnk(3, 3, 3), false),
        (Board::cx(4, 5, 3), true),
    ];
    for (i, (board, engine_first)) in boards.into_iter().enumerate() {
        let mut board = board;
        start(&mut e, &board, engine_first, T);
        play_out(&mut e, &mut board, engine_first, &mut random_opponent(i as u64));
    }
    // init in the middle of a game starts afresh.
    e.expect_ok("init cx 6 7 4 false 0.4");
    let mut b = Board::cx(6, 7, 4);
    b.play(3);
    b.play_reply(&e.ask("move 3"));
    e.expect_error("move 1 1"); // mnk text in a cx game
    e.expect_ok("init 3 3 3 false 0.4");
    // The cx moves are gone: every cell of the 3x3 board is free, and cx text is an error.
    e.expect_error("move 3");
    let mut b = Board::mnk(3, 3, 3);
    play_out(&mut e, &mut b, false, &mut random_opponent(77));
}

#[test]
fn position_mnk_both_forms() {
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 true 1");
    for pos in ["position 0,0 1,0 0,1 1,1", "position 0 0 1 0 0 1 1 1", "position 0,0 1 0 0 1 1,1"] {
        e.expect_ok(pos);
        e.expect("go", "0 2");
    }
    // Each position starts from the beginning, it does not append.
    e.expect_ok("position 2,2 1,0 2,1 1,1");
    e.expect("go", "2 0");
    // Second to move: the engine takes Second's side after go (then replies to moves).
    e.expect_ok("position 0,0 1,0 0,1");
    e.expect("go", "0 2"); // blocks
    let mut b = Board::mnk(3, 3, 3);
    for m in [0, 3, 1, 2] {
        b.play(m);
    }
    play_out(&mut e, &mut b, false, &mut random_opponent(3));
    // An empty position is the start.
    e.expect_ok("position");
    let mut b = Board::mnk(3, 3, 3);
    play_out(&mut e, &mut b, true, &mut random_opponent(8));
}

#[test]
fn position_mnk_large_board() {
    let mut e = Engine::spawn();
    e.expect_ok("init 15 15 5 false 0.5");
    e.expect_ok("position 7,7 0,0 7,8 0,1 7,9 0,2 7,10");
    // Second to move. First has four in a row from (7,7) to (7,10), open at both ends: nothing
    // saves Second, but any other move loses at once, so the reply must block one end.
    let reply = e.ask("go");
    assert!(reply == "7 6" || reply == "7 11", "{reply}");
}

#[test]
fn position_connectx() {
    let mut e = Engine::spawn();
    e.expect_ok("init cx 6 7 4 true 1");
    e.expect_ok("position 0 1 0 1 0 1");
    e.expect("go", "0");
    e.expect_ok("position 3 3 3 3 3 3 0 1 0 1 0");
    e.expect("go", "0"); // Second blocks
    let mut b = Board::cx(6, 7, 4);
    for m in [3, 3, 3, 3, 3, 3, 0, 1, 0, 1, 0, 0] {
        b.play(m);
    }
    play_out(&mut e, &mut b, false, &mut random_opponent(21));
}

#[test]
fn illegal_position_leaves_the_state_unchanged() {
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 true 1");
    e.expect_ok("position 0,0 1,0 0,1 1,1");
    for bad in [
        "position 0,0 0,0",
        "position 0,0 1,0 0,1 1,1 0,2 2,2",
        "position 0,0 1",
        "position 3,0",
        "position 0 3",
        "position a,b",
        "position 0,0,0",
        "position 0,0 1,0 0,1 1,1 x",
        "position 1,1 0,0 2,2 0,1 2,0 0,2 1,0",
    ] {
        e.expect_error(bad);
    }
    // Still the position set before: First wins at (0,2).
    e.expect("go", "0 2");

    e.expect_ok("init cx 6 7 4 false 1");
    e.expect_ok("position 0 1 0 1 0");
    for bad in [
        "position 0 0 0 0 0 0 0",
        "position 7",
        "position 1,2",
        "position 0 1 0 1 0 1 0 5",
        "position -1",
        "position 1 2 x",
    ] {
        e.expect_error(bad);
    }
    // Still the same: First threatens column 0, Second (to move) blocks it.
    e.expect("go", "0");
}

#[test]
fn set_options() {
    let mut e = Engine::spawn();
    for ok in [
        "set margin 100",
        "set margin 0",
        "set margin_ms 250",
        "set hash 1",
        "set hash 16",
        "set hash_mb 8",
        "set threads 1",
        "set threads 256",
        "set threads 2",
        "set level 1",
        "set level 10",
        "set level 5",
        "set seed 0",
        "set seed 18446744073709551615",
        "set player random",
        "set player l1",
        "set player search",
        "SET LEVEL 10",
        "set player RANDOM",
        "set player search",
    ] {
        e.expect_ok(ok);
    }
    for bad in [
        "set hash 0",
        "set hash 16385",
        "set hash -1",
        "set hash big",
        "set threads 0",
        "set threads 257",
        "set level 0",
        "set level 11",
        "set level 2.5",
        "set seed -1",
        "set seed 18446744073709551616",
        "set seed x",
        "set margin 1.5",
        "set margin -5",
        "set player foo",
        "set player",
        "set colour red",
        "set a b c",
        "set depth 65",
        "set margin 3600001",
    ] {
        e.expect_error(bad);
    }
    // An option out of its range: the error says the range, from the options' table.
    assert_eq!(e.expect_error("set threads 257"), "error threads must be a number from 1 to 256; got '257'");
    assert_eq!(e.expect_error("set depth 65"), "error depth must be a number from 1 to 64, or none; got '65'");
    assert!(e.expect_error("set colour red").contains("(player, margin, hash, threads, level,"));
    e.expect_ok("set depth 64");
    e.expect_ok("set depth none");
    // The evaluation network: a file no game reads is refused; off and default are words.
    assert!(e.expect_error("set net Cargo.toml").contains("not the evaluation network of any game"));
    assert!(e.expect_error("set net /nonexistent/x.net").contains("cannot read the net /nonexistent/x.net"));
    e.expect_ok("set net off");
    e.expect_ok("set net default");
    assert!(e.ask("help").contains(", net, "));
    // Options survive init; the engine still plays legal games at level 1.
    e.expect_ok("set level 1");
    for (board, first) in [(Board::mnk(7, 7, 5), true), (Board::cx(6, 7, 4), false)] {
        let mut board = board;
        start(&mut e, &board, first, T);
        play_out(&mut e, &mut board, first, &mut random_opponent(12));
    }
}

#[test]
fn set_player_random_plays_legal_moves_quickly() {
    let mut e = Engine::spawn();
    e.expect_ok("set player random");
    e.expect_ok("set seed 42");
    for (board, first) in [
        (Board::mnk(7, 7, 5), true),
        (Board::mnk(7, 7, 5), false),
        (Board::cx(6, 7, 4), true),
        (Board::cx(6, 7, 4), false),
    ] {
        let mut board = board;
        // A long TIMEOUT: a random player does not think, so replies come at once.
        start(&mut e, &board, first, "30");
        let g = play_out(&mut e, &mut board, first, &mut random_opponent(5));
        let slowest = g.latencies.iter().max().unwrap();
        assert!(*slowest < Duration::from_secs(2), "a random move took {slowest:?}");
    }
}

#[test]
fn seeded_random_player_is_reproducible_and_seed_dependent() {
    let run = |seed: u64| -> Vec<String> {
        let mut e = Engine::spawn();
        e.expect_ok("set player random");
        e.expect_ok(&format!("set seed {seed}"));
        e.expect_ok("init 7 7 5 true 1");
        let mut b = Board::mnk(7, 7, 5);
        let mut replies = Vec::new();
        for _ in 0..5 {
            let r = e.ask("go");
            b.play_reply(&r);
            replies.push(r);
            if b.result.is_some() {
                break;
            }
            // "go" plays for the side to move; keep playing both sides by the engine.
        }
        replies
    };
    assert_eq!(run(1), run(1));
    assert_ne!(run(1), run(2));
}

#[test]
fn set_player_l1_takes_immediate_wins() {
    let mut e = Engine::spawn();
    e.expect_ok("set player l1");
    e.expect_ok("init cx 6 7 4 true 1");
    e.expect_ok("position 0 1 0 1 0 1");
    e.expect("go", "0");
    e.expect_ok("init 3 3 3 true 1");
    e.expect_ok("position 0,0 1,0 0,1 1,1");
    e.expect("go", "0 2");
}

#[test]
fn command_line_flags() {
    let mut e = Engine::spawn_with(
        &["--player", "random", "--seed", "3", "--margin", "100", "--hash", "8", "--threads", "2"],
        &[],
    );
    let mut b = Board::cx(6, 7, 4);
    start(&mut e, &b, true, "30");
    let g = play_out(&mut e, &mut b, true, &mut random_opponent(1));
    assert!(g.latencies.iter().all(|d| *d < Duration::from_secs(2)), "random player flag not honoured");

    let mut e = Engine::spawn_with(&["--level", "2"], &[]);
    let mut b = Board::mnk(5, 5, 4);
    start(&mut e, &b, false, T);
    play_out(&mut e, &mut b, false, &mut random_opponent(2));

    for bad in [
        &["--hash", "0"][..],
        &["--level", "11"],
        &["--threads", "0"],
        &["--threads", "257"],
        &["--depth", "65"],
        &["--player", "foo"],
        &["--bogus"],
    ] {
        let mut e = Engine::spawn_with(bad, &[]);
        let status = e.wait_exit(Duration::from_secs(5)).expect("bad flags: the process should exit");
        assert!(!status.success(), "{bad:?} accepted");
    }
    // A bad value says so in one line and exits with status 2, backtrace asked for or not.
    let out = std::process::Command::new(common::BIN)
        .args(["--hash", "0"])
        .env("RUST_BACKTRACE", "1")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("hash must be"), "{err}");
    // Every option of the table is a flag, its range said by the table.
    let out = std::process::Command::new(common::BIN)
        .args(["--depth", "65"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err.trim(), "boardbot: --depth must be a number from 1 to 64, or none; got '65'");
}

/// Every stdout line is a protocol line, even with RUST_LOG=info; the logs go to stderr.
#[test]
fn stdout_carries_only_protocol_lines() {
    let mut e = Engine::spawn_with(&[], &[("RUST_LOG", "info")]);
    let mut b = Board::mnk(7, 7, 5);
    start(&mut e, &b, true, T);
    play_out(&mut e, &mut b, true, &mut tactical_opponent(1));
    let mut b = Board::cx(6, 7, 4);
    start(&mut e, &b, false, T);
    play_out(&mut e, &mut b, false, &mut tactical_opponent(2));
    e.expect_error("bogus");
    e.send("name");
    e.send("quit");
    let rest = e.remaining_lines(Duration::from_secs(5));
    assert_eq!(rest.len(), 1, "{rest:?}");
    e.assert_exits_ok(Duration::from_secs(5));
    let is_protocol_line = |l: &str| {
        let w: Vec<&str> = l.split(' ').collect();
        let num = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        l == "ok"
            || (l.starts_with("error ") && l.len() > 6)
            || (w.len() == 3 && w[0] == "name" && w[1] == "boardbot")
            || matches!(l, "end first wins" | "end second wins" | "end draw")
            || (w.len() == 2 && num(w[0]) && num(w[1]))
            || (w.len() == 1 && num(w[0]))
    };
    let replies = e.received().to_vec();
    assert!(replies.len() > 10, "{replies:?}");
    for l in &replies {
        assert!(is_protocol_line(l), "not a protocol line on stdout: '{l}'");
    }
    let err = e.finish_stderr();
    assert!(!err.trim().is_empty(), "RUST_LOG=info wrote nothing to stderr");
    assert!(err.contains("depth") && err.contains("nodes") && err.contains("pv"), "no search logs: {err}");
}

#[test]
fn quit_exits_at_once_and_ignores_what_follows() {
    // Idle.
    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 true 1");
    e.send("quit");
    e.send("name");
    assert_eq!(e.remaining_lines(Duration::from_secs(2)), Vec::<String>::new());
    e.assert_exits_ok(Duration::from_secs(2));

    // In the middle of a 30-second search: the session ends at once; nothing after quit is
    // answered.
    let mut e = Engine::spawn();
    e.expect_ok("init 15 15 5 false 30");
    e.send("move 7 7");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    e.send_raw(b"quit\nname\n");
    let rest = e.remaining_lines(Duration::from_secs(3));
    e.assert_exits_ok(Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_secs(2), "quit took {:?}", t.elapsed());
    // The search in progress is cut short and its move still written (as at end of input).
    assert_eq!(rest.len(), 1, "{rest:?}");
    let mut b = Board::mnk(15, 15, 5);
    b.play(7 * 15 + 7);
    for r in &rest {
        b.play_reply(r);
    }
    // Case and spaces do not matter.
    let mut e = Engine::spawn();
    e.send("  QUIT ");
    assert_eq!(e.remaining_lines(Duration::from_secs(2)), Vec::<String>::new());
    e.assert_exits_ok(Duration::from_secs(2));
}

#[test]
fn end_of_input_exits_with_status_zero() {
    let mut e = Engine::spawn();
    e.close_stdin();
    e.assert_exits_ok(Duration::from_secs(2));

    let mut e = Engine::spawn();
    e.expect_ok("init 3 3 3 true 1");
    e.close_stdin();
    assert_eq!(e.remaining_lines(Duration::from_secs(2)), Vec::<String>::new());
    e.assert_exits_ok(Duration::from_secs(2));
}

/// End of input in the middle of a 30-second search: the search stops at once, its move is still
/// written, and the process exits with status 0.
#[test]
fn end_of_input_during_a_search_still_replies_and_exits() {
    // As a controller would do it: init, go, close.
    let mut e = Engine::spawn();
    let t = Instant::now();
    e.send_raw(b"init 15 15 5 true 30\ngo\n");
    e.close_stdin();
    let rest = e.remaining_lines(Duration::from_secs(3));
    e.assert_exits_ok(Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_secs(2), "exit took {:?}", t.elapsed());
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(rest[0], "ok");
    Board::mnk(15, 15, 5).play_reply(&rest[1]);

    // A search that is surely running when the input closes (the engine is second, so its first
    // reply is a real search, not the opening move).
    for (init, board, opening) in [
        ("init 15 15 5 false 30", Board::mnk(15, 15, 5), 7 * 15 + 7),
        ("init cx 25 25 10 false 30", Board::cx(25, 25, 10), 12),
    ] {
        let mut e = Engine::spawn();
        let mut b = board;
        e.expect_ok(init);
        b.play(opening);
        e.send(&format!("move {}", b.text(opening)));
        std::thread::sleep(Duration::from_millis(300));
        assert!(e.try_recv(Duration::ZERO).is_err(), "replied before the input closed: not a real search");
        let t = Instant::now();
        e.close_stdin();
        let rest = e.remaining_lines(Duration::from_secs(3));
        e.assert_exits_ok(Duration::from_secs(2));
        assert!(t.elapsed() < Duration::from_secs(2), "exit took {:?} after end of input", t.elapsed());
        assert_eq!(rest.len(), 1, "{rest:?}");
        b.play_reply(&rest[0]);
    }
    // Queued commands are still answered, with searches cut short.
    let mut e = Engine::spawn();
    let t = Instant::now();
    e.send_raw(b"init 15 15 5 false 30\nmove 7 7\nname\n");
    e.close_stdin();
    let rest = e.remaining_lines(Duration::from_secs(3));
    e.assert_exits_ok(Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(rest.len(), 3, "{rest:?}");
    assert_eq!(rest[0], "ok");
    let mut b = Board::mnk(15, 15, 5);
    b.play(7 * 15 + 7);
    b.play_reply(&rest[1]);
    assert!(rest[2].starts_with("name boardbot "));
}

/// The CPU time the engine spends on its reply to `line`: what a search of `budget` can use
/// at most (one thread), however loaded the machine is, with room for the reply's own set-up.
fn reply_cpu(e: &mut Engine, line: &str) -> (String, Duration) {
    let before = e.cpu_time();
    e.send(line);
    // Generous: a loaded machine may delay the reply, not make it cost more CPU.
    let reply = e.recv_within(Duration::from_secs(120));
    (reply, e.cpu_time().saturating_sub(before))
}

/// Issue 39, 1: with X longer than any line of the board, the Connect-X solver's line search
/// took seconds of CPU a node (`cx 6 7 255` at 0.1 s: 5.7-6.7 s a move).
#[test]
fn connectx_with_a_huge_x_answers_within_the_budget() {
    for spec in ["cx 6 7 255", "cx 4 4 255", "cx 6 7 64", "cx 6 7 9"] {
        let mut e = Engine::spawn();
        e.expect_ok(&format!("init {spec} true 0.1"));
        for line in ["go", "go", "go"] {
            let (reply, cpu) = reply_cpu(&mut e, line);
            assert!(!reply.starts_with("error"), "{spec}: {reply}");
            assert!(cpu < Duration::from_millis(400), "{spec}: '{line}' took {cpu:?} of CPU at 0.1 s a move");
        }
    }
}

/// Issue 39, 2: a fixed-depth player (`abN`) answers within the budget with the deepest depth
/// it finished, and stops at `quit` (`ab64` never replied nor exited; `ab12` took 8.1 s at 0.1 s).
#[test]
fn fixed_depth_players_answer_within_the_budget_and_stop_at_quit() {
    for (player, spec) in [("ab64", "checkers english"), ("ab12", "checkers english"), ("ab64", "mnk 15 15 5")] {
        let mut e = Engine::spawn();
        e.expect_ok(&format!("set player {player}"));
        e.expect_ok(&format!("init {spec} true 0.1"));
        for _ in 0..3 {
            let (reply, cpu) = reply_cpu(&mut e, "go");
            assert!(!reply.starts_with("error"), "{player} {spec}: {reply}");
            assert!(cpu < Duration::from_millis(400), "{player} {spec}: the reply took {cpu:?} of CPU at 0.1 s");
        }
        // A long budget, then quit during the search: the process ends at once, its move written.
        e.expect_ok(&format!("init {spec} true 600"));
        e.send("go");
        std::thread::sleep(Duration::from_millis(300));
        e.send("quit");
        e.assert_exits_ok(Duration::from_secs(60));
        let rest = e.remaining_lines(Duration::from_secs(1));
        assert_eq!(rest.len(), 1, "{player} {spec}: {rest:?}");
    }
}

/// Issue 39, 7: `position 16, 5` and `position ,5 6` were read as moves; Kalah took `move +1`.
#[test]
fn malformed_cells_and_signed_pits_are_errors() {
    let mut e = Engine::spawn();
    e.expect_ok("init 20 20 5 false 1");
    // In `position` a move is one word `R,C` or two words `R C` (protocol.md).
    for line in ["position 16, 5", "position ,5 6", "position 16 ,5", "position 16,", "move ,5 6", "move 16 5,"] {
        e.expect_error(line);
    }
    e.expect_ok("position 16,5 3 4");
    // Issue 57, item 11: a two-word move as `move` reads it (leading zeros), not only as the
    // engine writes it.
    e.expect_ok("position 6 00 3 4");
    e.expect_ok("position 6 0 03 004");
    e.expect_ok("position");
    e.send("move 6 00");
    assert!(!e.recv().starts_with("error"));
    // A single move takes any mix of commas and blanks between its two numbers.
    e.expect_ok("position");
    e.send("move 16, 5");
    assert!(!e.recv().starts_with("error"));
    // Kalah's init builds its tables (item 6 of the issue, another change): it may take long.
    e.send("init kalah 6 4 false 1");
    assert_eq!(e.recv_within(Duration::from_secs(120)), "ok");
    for line in ["move +1", "move +6", "move 1.0"] {
        e.expect_error(line);
    }
    e.send("move 1");
    assert!(!e.recv().starts_with("error"));
}

/// Issue 57, item 5: with `hash 1` the games' share of the hash is 0 MiB, which the board-size
/// check read as "no limit": `init 1000 1000 5` was accepted and took 172 MB.
#[test]
fn the_smallest_hash_keeps_the_board_size_check() {
    for mut e in [Engine::spawn_with(&["--hash", "1"], &[]), Engine::spawn()] {
        e.expect_ok("set hash 1");
        let err = e.expect_error("init 1000 1000 5 true 0.05");
        assert!(err.contains("more than the hash allows (1 MiB)"), "{err}");
        e.expect_ok("init 15 15 5 true 0.05");
        e.expect_ok("set hash 2");
        e.expect_error("init 1000 1000 5 true 0.05");
    }
}

/// Issue 57, item 6: a board too large for the hash is refused before it is made: `--hash 2`,
/// `init 1000 1000 5` took 154 MB and 0.5-1.6 s before its error.
#[test]
fn a_board_too_large_is_refused_before_it_is_made() {
    let mut e = Engine::spawn_with(&["--hash", "2"], &[]);
    let err = e.expect_error("init 1000 1000 5 true 0.05");
    assert!(err.contains("more than the hash allows (2 MiB)"), "{err}");
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.pid())).expect("/proc (Linux)");
    let peak: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .expect("VmHWM");
    // The board alone would take 147 MiB.
    assert!(peak < 40 << 10, "peak {peak} KiB");
    e.expect_ok("init 15 15 5 true 0.05");
}
