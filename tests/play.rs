//! `boardbot play`: the real binary driven by piped input, as a person would type.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");

/// Longest a whole session may take (generous: the machine may be loaded).
const SESSION_TIMEOUT: Duration = Duration::from_secs(60);

/// Runs `boardbot ARGS` with `input` piped in; its standard output, and whether it succeeded.
fn run(args: &[&str], input: &str, env: &[(&str, &str)]) -> (String, bool) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.env_remove("RUST_LOG").env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("spawn boardbot");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        stdout.read_to_string(&mut s).ok();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        stderr.read_to_string(&mut s).ok();
        s
    });
    let mut stdin = child.stdin.take().expect("stdin");
    // The program may end before reading everything (quit): a broken pipe is no failure here.
    stdin.write_all(input.as_bytes()).ok();
    drop(stdin);
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > SESSION_TIMEOUT {
            child.kill().ok();
            panic!("boardbot {args:?} did not end within {SESSION_TIMEOUT:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let out = out.join().unwrap();
    let err = err.join().unwrap();
    assert!(err.trim().is_empty() || status.success(), "stderr: {err}\nstdout: {out}");
    (out, status.success())
}

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (out, ok) = run(&all, input, &[]);
    assert!(ok, "boardbot play {args:?} failed:\n{out}");
    out
}

fn lines_starting<'a>(out: &'a str, prefix: &str) -> Vec<&'a str> {
    out.lines().filter(|l| l.starts_with(prefix)).collect()
}

fn the_result(out: &str) -> &str {
    let results = lines_starting(out, "Result: ");
    assert_eq!(results.len(), 1, "one result line:\n{out}");
    results[0]
}

const TIC_TAC_TOE_CELLS: [&str; 9] = ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"];

#[test]
fn tic_tac_toe_against_the_engine_to_the_end() {
    // Every cell in order: those taken are refused and skipped.
    let input = TIC_TAC_TOE_CELLS.join("\n") + "\n";
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], &input);
    assert!(out.contains("   a  b  c\n3  .  .  .\n2  .  .  .\n1  .  .  .\n"), "coordinates:\n{out}");
    assert!(out.contains("you (X) play a1"), "{out}");
    // Row 1 at the bottom, as renju and playok number them: a1 is the bottom-left cell.
    assert!(out.contains("\n1 [X] .  .\n"), "a1 at the bottom left:\n{out}");
    assert!(out.contains("  thought: "), "the engine's thinking:\n{out}");
    assert!(!out.contains("depth 0") && !out.contains("depth 255"), "{out}");
    let result = the_result(&out);
    assert!(result == "Result: draw; the board is full." || result.starts_with("Result: boardbot (O) wins; "), "{out}");
}

#[test]
fn the_engine_against_itself_draws_at_tic_tac_toe() {
    let out = play(&["mnk", "3", "3", "3", "--you", "none", "--time", "0.1"], "");
    assert_eq!(the_result(&out), "Result: draw; the board is full.", "{out}");
    assert_eq!(lines_starting(&out, "boardbot ").len(), 9, "{out}");
}

#[test]
fn connect_four_by_column_numbers() {
    let input = "4\n3\n5\n2\n6\n1\n7\n".repeat(6);
    let out = play(&["cx", "6", "7", "4", "--time", "0.1"], &input);
    assert!(out.contains(" 1  2  3  4  5  6  7\n"), "column numbers above the board:\n{out}");
    assert!(out.contains("you (Red) play 4\n"), "{out}");
    assert!(out.contains("  thought: "), "{out}");
    let result = the_result(&out);
    assert!(result.starts_with("Result: "), "{out}");
    // A win names its line by the columns, as the moves are written.
    if result.contains("wins") {
        assert!(result.contains("4 in a row ") && result.contains("column"), "{out}");
    }
}

#[test]
fn bantumi_by_pit_numbers_with_extra_turns() {
    // Pits 1..6 in turn: the empty ones are refused and skipped; an extra turn asks again.
    let input = "1\n2\n3\n4\n5\n6\n".repeat(30);
    let out = play(&["kalah", "6", "3", "--time", "0.1"], &input);
    assert!(
        out.contains("         1   2   3   4   5   6\nstores: North 0 (left), South 0 (right)\n"),
        "pit numbers under the person's row:\n{out}"
    );
    assert!(out.contains("you (South) play 1\n"), "{out}");
    assert!(out.contains("  thought: "), "{out}");
    // A proved result is said as a margin in seeds, never as a number of moves.
    for line in lines_starting(&out, "  thought: ") {
        assert!(!line.contains(" in ") && !line.contains(" moves"), "{line}");
    }
    let result = the_result(&out);
    assert!(result.starts_with("Result: boardbot (North) wins; North has more seeds: "), "{out}");
}

#[test]
fn checkers_by_square_numbers_and_an_ending_to_the_end() {
    let out = play(&["checkers", "english", "--time", "0.1"], "11-15\n12-15\nquit\n");
    // Black (the person) at the bottom: the diagram turned half round.
    assert!(out.contains("\n     16      15      14      13         16  15  14  13\n"), "square numbers:\n{out}");
    assert!(out.contains("\n  b       b       b       b            4   3   2   1\nBlack to move"), "{out}");
    assert!(out.contains("you (Black) play 11-15\n"), "{out}");
    assert!(out.contains("boardbot (White) plays "), "{out}");
    assert!(out.contains("error: "), "12-15 is no move now:\n{out}");
    // From a position given as FEN, the engine against itself plays it out: Black's capture
    // (compulsory) takes White's last piece.
    let out = play(&["checkers", "english", "fen", "B:W18:B14,K1", "--you", "none", "--time", "0.05"], "");
    assert!(out.contains("boardbot Black plays 14x23\n"), "{out}");
    assert_eq!(the_result(&out), "Result: boardbot Black wins; White has no pieces left.", "{out}");
    // After the end, no side is to move.
    let last_board = &out[out.rfind("boardbot Black plays").unwrap()..];
    assert!(!last_board.contains("to move"), "{out}");
    // Playing White: White at the bottom, as the diagram draws it.
    let out = play(&["checkers", "--you", "second", "--time", "0.1"], "quit\n");
    assert!(out.contains("\n 13      14      15      16           13  14  15  16\n"), "{out}");
}

#[test]
fn wrong_entries_get_one_line_each_and_undo_takes_back_a_round() {
    let input = "b2\nz9\n99\nb2\nlevel 42\nfoo bar\nundo\nb2\n";
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], input);
    let lines: Vec<&str> = out.lines().collect();
    let errors: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with("error: ")).collect();
    assert_eq!(errors.len(), 5, "{out}");
    for &i in &errors {
        // One line, then the prompt again, at the same move.
        assert!(lines[i + 1].starts_with("move 2, you (X) to play> "), "{out}");
    }
    assert!(lines[errors[0]].contains("'z9' is off the board"), "{out}");
    assert!(lines[errors[1]].contains("'99' is not a cell"), "{out}");
    assert!(lines[errors[2]].contains("b2 is taken"), "{out}");
    assert!(lines[errors[3]].contains("level must be"), "{out}");
    assert!(out.contains("Took back 2 moves.\n   a  b  c\n3  .  .  .\n2  .  .  .\n1  .  .  .\n"), "{out}");
    assert_eq!(out.matches("you (X) play b2\n").count(), 2, "{out}");
    // The protocol's notation works too.
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], "1,1\n");
    assert!(out.contains("you (X) play b2\n"), "{out}");
}

#[test]
fn a_hint_is_a_legal_move_not_played() {
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], "b2\nhint\n");
    let reply = lines_starting(&out, "boardbot (O) plays ")[0].trim_start_matches("boardbot (O) plays ");
    let hint = lines_starting(&out, "hint: ")[0].trim_start_matches("hint: ");
    let cell = hint.split_whitespace().next().unwrap();
    assert!(TIC_TAC_TOE_CELLS.contains(&cell) && cell != "b2" && cell != reply, "{out}");
    let after = &out[out.find("hint: ").unwrap()..];
    assert!(after.lines().nth(1).unwrap().starts_with("move 2, you (X) to play>"), "{out}");
}

#[test]
fn save_writes_a_log_that_replay_accepts() {
    let dir = std::env::temp_dir().join(format!("boardbot-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("game.log");
    let log_text = log.to_str().unwrap();
    let out = play(&["mnk", "3", "3", "3", "--you", "none", "--time", "0.1"], &format!("save {log_text}\n"));
    assert!(out.contains("Saved to "), "{out}");
    let (replay, ok) = run(&["replay", log_text], "", &[]);
    assert!(ok && replay.contains("1 ok, 0 failed"), "{replay}");
    // An unfinished game is not saved: one error line.
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], &format!("b2\nsave {log_text}\n"));
    assert_eq!(lines_starting(&out, "error: save: the game is not over").len(), 1, "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn switch_makes_the_engine_move_and_new_restarts() {
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], "swap\nswitch\nnew\n");
    // `swap` is a move (Kalah's pie rule), no command.
    assert_eq!(lines_starting(&out, "error: swap is a move only under Kalah's pie rule").len(), 1, "{out}");
    let swapped = out.find("Sides changed: X: boardbot, O: you.").expect(&out);
    let after = &out[swapped..];
    assert!(after.lines().nth(1).unwrap().starts_with("boardbot (X) plays "), "{out}");
    assert!(after.contains("move 1, you (O) to play> new"), "{out}");
    // The new game keeps the sides: the engine opens again.
    let restarted = &out[out.rfind("New game: mnk 3 3 3").unwrap()..];
    assert!(restarted.lines().nth(5).unwrap().starts_with("boardbot (X) plays "), "{out}");
    assert_eq!(out.matches("New game: ").count(), 2, "{out}");
}

#[test]
fn the_setup_step_by_step_with_the_defaults() {
    let out = play(&["--time", "0.1"], "\n\n\n\n\nb2\n");
    for text in [
        "mnk M N K",
        "cx M N X",
        "By name: tic-tac-toe (mnk 3 3 3), gomoku (mnk 15 15 5), connect4 (cx 6 7 4)",
        "Game and board [mnk 3 3 3]: ",
        "Level: easy, medium, hard, max or a number from 1 to 10 [max]: ",
        "Algorithm: full, minimax, minimax-symmetric, alphabeta, ordered, table, symmetric [full]: ",
        "New game: mnk 3 3 3;",
        "you (X) play b2",
    ] {
        assert!(out.contains(text), "'{text}' missing:\n{out}");
    }
    assert_eq!(lines_starting(&out, "boardbot (O) plays ").len(), 1, "{out}");
    // Cells out of play at random, from the seed; Connect-4 by its description.
    // The list of games is wrapped at word boundaries.
    assert!(out.lines().all(|l| l.len() <= 100 || l.starts_with("Who plays")), "{out}");
    let out = play(&["--time", "0.1", "--seed", "7"], "\n3\nnone\n\n\n");
    let game = lines_starting(&out, "New game: mnk 3 3 3 blocked ")[0];
    assert_eq!(game.split(';').next().unwrap().split_whitespace().count(), 10, "{out}");
    let again = play(&["--time", "0.1", "--seed", "7"], "\n3\nnone\n\n\n");
    assert_eq!(lines_starting(&again, "New game: ")[0], game);
    let out = play(&[], "connect4\n\n\n\n4\nquit\n");
    assert!(out.contains("New game: cx 6 7 4;") && out.contains("you (Red) play 4\n"), "{out}");
}

#[test]
fn no_colour_when_piped() {
    for env in [&[][..], &[("NO_COLOR", "1")][..]] {
        let (out, ok) = run(&["play", "cx", "4", "4", "3", "--you", "none", "--time", "0.1"], "", env);
        assert!(ok && out.contains("Result: "), "{out}");
        assert!(!out.contains('\x1b'), "ANSI escapes in piped output:\n{out}");
    }
}

#[test]
fn games_by_the_names_people_use() {
    for (name, game) in [
        ("tic-tac-toe", "mnk 3 3 3"),
        ("connect4", "cx 6 7 4"),
        ("gomoku", "mnk 15 15 5"),
        ("bantumi", "kalah 6 3"),
        ("kalah", "kalah 6 4"),
        ("checkers", "checkers english"),
    ] {
        let out = play(&[name, "--time", "0.1"], "quit\n");
        assert!(out.starts_with(&format!("New game: {game};")), "{name}:\n{out}");
    }
    // Options follow a name; a game's own words stay its own.
    let out = play(&["kalah", "pie", "--time", "0.1"], "quit\n");
    assert!(out.starts_with("New game: kalah 6 4 pie;"), "{out}");
    let out = play(&["kalah", "6", "6", "--time", "0.1"], "quit\n");
    assert!(out.starts_with("New game: kalah 6 6;"), "{out}");
    // The referee takes them too.
    let (out, ok) = run(
        &[
            "match",
            "--game",
            "connect4",
            "--game",
            "tic-tac-toe",
            "--rounds",
            "1",
            "--timeout",
            "0.2",
            "--engine1",
            "random",
            "--engine2",
            "random",
        ],
        "",
        &[],
    );
    assert!(ok && out.contains("cx 6 7 4") && out.contains("mnk 3 3 3"), "{out}");
}

#[test]
fn a_capture_written_as_a_step_is_taken_when_it_names_one_move() {
    // Black's man on 14 must take White's on 18: `14-23` means `14x23`.
    let out = play(&["checkers", "english", "fen", "B:W18,30:B14", "--time", "0.1"], "14-23\nquit\n");
    assert!(out.contains("you (Black) play 14x23\n"), "{out}");
    // A step is still a step.
    let out = play(&["checkers", "--time", "0.1"], "11-15\nquit\n");
    assert!(out.contains("you (Black) play 11-15\n"), "{out}");
}

#[test]
fn under_the_pie_rule_swap_is_a_move_in_the_log() {
    let out = play(&["kalah", "6", "3", "pie", "--you", "second", "--time", "0.1"], "swap\nmoves\nquit\n");
    assert!(out.contains("you (North) play swap\n"), "{out}");
    assert!(out.contains("Swap: North took over the first move's position."), "{out}");
    let list = &out[out.find("> moves\n").expect(&out)..];
    assert!(list.lines().nth(1).unwrap().contains("North swap (you)"), "{out}");
}

#[test]
fn the_algorithm_evaluation_and_depth_chosen() {
    // Minimax to depth 2 from the empty 3x3 board: 1 + 9 + 72 positions.
    let args = ["mnk", "3", "3", "3", "--you", "second", "--algorithm", "minimax", "--depth", "2", "--time", "5"];
    let out = play(&args, "quit\n");
    assert!(out.contains("New game: mnk 3 3 3; X: boardbot, O: you, algorithm minimax"), "{out}");
    assert!(out.contains("(minimax to depth 2, 82 nodes, "), "{out}");
    let args = ["mnk", "3", "3", "3", "--you", "second", "--algorithm", "alphabeta", "--depth", "2", "--time", "5"];
    let out = play(&args, "quit\n");
    let nodes: u64 =
        out.split("(alphabeta to depth 2, ").nth(1).expect(&out).split(' ').next().unwrap().parse().unwrap();
    assert!(nodes < 82, "alpha-beta prunes: {out}");
    // Step by step, with the open windows counted.
    let out = play(&["--time", "5"], "mnk 3 3 3\n\nsecond\n\nminimax-symmetric\nwindows\n3\nquit\n");
    for text in ["Evaluation [threats]: ", "Depth at most, 1 to 64, or none", "(minimax-symmetric to depth 3, "] {
        assert!(out.contains(text), "'{text}' missing:\n{out}");
    }
    // An evaluation the game does not have: one clear error.
    let args = ["play", "kalah", "6", "3", "--algorithm", "minimax", "--evaluation", "windows"];
    let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("has no evaluation 'windows' (standard, stores)"), "{err}");
}

/// The engine's reply to b2 at tic-tac-toe, easy, in a new process (with `seed` if any).
fn easy_reply(seed: Option<&str>) -> String {
    let mut args = vec!["mnk", "3", "3", "3", "--level", "easy", "--time", "1"];
    if let Some(seed) = seed {
        args.extend(["--seed", seed]);
    }
    let out = play(&args, "b2\nquit\n");
    lines_starting(&out, "boardbot (O) plays ")[0].to_string()
}

#[test]
fn below_max_each_process_plays_its_own_game_unless_seeded() {
    let replies: std::collections::HashSet<String> = (0..10).map(|_| easy_reply(None)).collect();
    assert!(replies.len() > 1, "10 sessions, the same reply: {replies:?}");
    let seeded: std::collections::HashSet<String> = (0..4).map(|_| easy_reply(Some("11"))).collect();
    assert_eq!(seeded.len(), 1, "a seed fixes the game: {seeded:?}");
}

#[test]
fn switch_keeps_who_played_the_earlier_moves() {
    let args = ["mnk", "3", "3", "3", "--algorithm", "minimax", "--depth", "2", "--time", "5"];
    let out = play(&args, "b2\nswitch\nmoves\nquit\n");
    let list = &out[out.find("> moves\n").expect(&out)..];
    let first = list.lines().nth(1).unwrap();
    assert!(first.starts_with("  1. X b2 (you)") && first.contains(" (boardbot)"), "{out}");
    assert!(
        list.lines().nth(2).unwrap().starts_with("  2. X ") && list.lines().nth(2).unwrap().ends_with("(boardbot)"),
        "{out}"
    );
}

#[test]
fn the_prompt_counts_moves_as_the_move_list_does() {
    let args = ["mnk", "3", "3", "3", "--algorithm", "minimax", "--depth", "2", "--time", "5"];
    let out = play(&args, "b2\nquit\n");
    // X b2 and the engine's O reply make move 1; X's next is move 2.
    assert!(out.contains("move 1, you (X) to play> b2"), "{out}");
    assert!(out.contains("move 2, you (X) to play> quit"), "{out}");
}

#[test]
fn a_multiple_jump_typed_with_dashes() {
    let out = play(&["checkers", "english", "fen", "B:W18,27:B14", "--time", "0.1"], "14-23-32\nquit\n");
    assert!(out.contains("you (Black) play 14x23x32\n"), "{out}");
    assert!(!out.contains("error:"), "{out}");
}

#[test]
fn the_new_game_line_names_the_evaluation_and_depth() {
    let args =
        ["mnk", "3", "3", "3", "--algorithm", "minimax", "--evaluation", "windows", "--depth", "2", "--time", "5"];
    let out = play(&args, "quit\n");
    assert!(out.contains("algorithm minimax, evaluation windows, depth at most 2, 5 s a move"), "{out}");
    let out = play(&["mnk", "3", "3", "3", "--algorithm", "alphabeta", "--time", "5"], "quit\n");
    assert!(out.contains("algorithm alphabeta, evaluation threats, depth the time decides"), "{out}");
}

#[test]
fn level_under_a_textbook_algorithm_and_evaluation_under_full_are_refused() {
    let args = ["mnk", "3", "3", "3", "--algorithm", "minimax", "--depth", "2", "--time", "5"];
    let out = play(&args, "level easy\nquit\n");
    assert_eq!(lines_starting(&out, "error: level sets the full engine's strength").len(), 1, "{out}");
    assert!(!out.contains("Level easy."), "{out}");
    let args = ["play", "mnk", "3", "3", "3", "--algorithm", "full", "--evaluation", "windows"];
    let out = Command::new(BIN).args(args).stdin(Stdio::null()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--evaluation chooses a textbook algorithm's evaluation"), "{err}");
}

#[test]
fn an_occupied_gomoku_cell_is_taken() {
    let out = play(&["gomoku", "--level", "easy", "--seed", "1", "--time", "0.1"], "h8\nh8\nquit\n");
    assert_eq!(lines_starting(&out, "error: h8 is taken").len(), 1, "{out}");
    assert!(!out.contains("the legal moves"), "{out}");
}

/// The engine's account of its move comes from the search's root policy, which knows what
/// decided it: gomoku's first move is the opening book's (it was once called an only move, as
/// the terminal rebuilt the reason from a depth of 0 and no nodes), Connect-4's the solver's book
/// with its proved value.
#[test]
fn a_book_move_is_called_a_book_move() {
    let out = play(&["gomoku", "--you", "second", "--time", "0.5"], "quit\n");
    assert!(out.contains("boardbot (Black) plays h8\n  thought: book move\n"), "{out}");
    let out = play(&["cx", "6", "7", "4", "--you", "second", "--time", "0.5"], "quit\n");
    assert!(out.contains("boardbot (Red) plays 4\n  thought: book move: boardbot wins in 21 moves\n"), "{out}");
}

/// Gomoku's players are Black and White, Connect-4's Red and Yellow, as the page names them (the
/// text board's X and O said beside them); tic-tac-toe keeps X and O.
#[test]
fn players_are_named_as_people_name_them() {
    let out = play(&["gomoku", "--time", "0.1"], "h8\nhelp\nquit\n");
    assert!(out.contains("; Black (X): you, White (O): boardbot,"), "{out}");
    assert!(out.contains("you (Black) play h8\n") && out.contains("boardbot (White) plays "), "{out}");
    assert!(out.contains("The board: Black (X) moves first"), "{out}");
    let out = play(&["cx", "6", "7", "4", "--time", "0.1"], "quit\n");
    assert!(out.contains("; Red (X): you, Yellow (O): boardbot,"), "{out}");
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], "quit\n");
    assert!(out.contains("; X: you, O: boardbot,"), "{out}");
}

/// Issue 78: `export FILE` writes the game so far in its players' format and `load FILE` plays
/// on from a record's last move; a record that is no legal game is one error line naming the
/// line and move, and the game goes on unchanged.
#[test]
fn export_and_load_carry_a_game_between_sessions() {
    let dir = std::env::temp_dir().join(format!("boardbot-play-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (pdn, bad) = (dir.join("game.pdn"), dir.join("bad.pdn"));
    let (pdn_text, bad_text) = (pdn.to_str().unwrap(), bad.to_str().unwrap());
    let out = play(&["checkers", "english", "--time", "0.1"], &format!("11-15\nexport {pdn_text}\nquit\n"));
    assert!(out.contains(&format!("Wrote the game to {pdn_text}")), "{out}");
    let written = std::fs::read_to_string(&pdn).unwrap();
    assert!(
        written.contains("[GameType \"21\"]") && written.contains("1. 11-15 ") && written.contains("[Black \"You\"]"),
        "{written}"
    );
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], &format!("load {pdn_text}\nmoves\nquit\n"));
    assert!(out.contains(&format!("Loaded {pdn_text}: checkers english, 2 moves.")), "{out}");
    assert!(out.contains("you (Black)") || out.contains("Black 11-15"), "{out}");
    std::fs::write(&bad, "[GameType \"21\"]\n1. 11-15 23-19\n2. 8-11 22-16 *\n").unwrap();
    let out = play(&["mnk", "3", "3", "3", "--time", "0.1"], &format!("b2\nload {bad_text}\nmoves\nquit\n"));
    let errors = lines_starting(&out, "error: load: ");
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].contains("line 3") && errors[0].contains("move 4 (22-16)"), "{out}");
    assert!(!out.contains("Loaded"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Issue 78: `boardbot annotate` writes a 40-move checkers game back as PDN with each move's
/// evaluation, the engine's move where it differs and ?!, ?, ?? marks; the output loads as the
/// same game (the page and `play` read it alike). The game: random legal moves (seeded), so
/// that the engine disagrees often.
#[test]
fn annotate_marks_the_moves_the_engine_would_not_play() {
    use boardbot::game::registry::{GameSpec, Resources};
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    let mut game = GameSpec::parse("checkers english").unwrap().new_game(&Resources::none()).unwrap();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(40);
    while game.history().len() < 40 && game.outcome().is_none() {
        let moves = game.legal_moves();
        game.play(moves.choose(&mut rng).unwrap()).unwrap();
    }
    let moves = game.history();
    assert_eq!(moves.len(), 40);
    let dir = std::env::temp_dir().join(format!("boardbot-annotate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (file, out) = (dir.join("random.txt"), dir.join("annotated.pdn"));
    std::fs::write(&file, format!("game checkers english\nmoves\n{}\n", moves.join("\n"))).unwrap();
    let (_, ok) = run(
        &["annotate", file.to_str().unwrap(), "--ms", "100", "--hash", "32", "-q", "-o", out.to_str().unwrap()],
        "",
        &[],
    );
    assert!(ok);
    let pdn = std::fs::read_to_string(&out).unwrap();
    assert!(pdn.contains("[GameType \"21\"]") && pdn.contains("; best "), "{pdn}");
    let marks = pdn.matches("?!").count() + pdn.matches("? {").count() + pdn.matches("?? {").count();
    assert!(marks >= 3, "random moves marked: {pdn}");
    // The annotated file loads as the same game.
    let (loaded, _) =
        run(&["play", "mnk", "3", "3", "3", "--time", "0.05"], &format!("load {}\nquit\n", out.display()), &[]);
    assert!(loaded.contains("checkers english, 40 moves."), "{loaded}");
    std::fs::remove_dir_all(&dir).ok();
}
