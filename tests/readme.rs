//! README.md, checked as a newcomer reads it: every command line of its code blocks runs (with
//! short limits: one round, 0.2 s a move, searches of a second), every flag it shows is in the
//! help of its subcommand, the files it names for the other commands are there, and the analyze
//! table holds what `boardbot analyze` prints. Also: protocol mode says one line on a terminal and
//! nothing on a pipe, and no test passes by skipping.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_boardbot");
const README: &str = include_str!("../README.md");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The lines of the README's code blocks (indented by four spaces) that are commands: `$ ` and
/// comments (`  # ...`) dropped, continued lines (`\`) joined.
fn command_lines() -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in README.lines() {
        let Some(code) = line.strip_prefix("    ") else { continue };
        let code = code.trim();
        let code = code.strip_prefix("$ ").unwrap_or(code);
        if !pending.is_empty() {
            pending.push(' ');
        }
        pending.push_str(code);
        if pending.ends_with('\\') {
            pending.pop();
            continue;
        }
        let line = match pending.find("  #") {
            Some(at) => pending[..at].trim().to_string(),
            None => pending.trim().to_string(),
        };
        pending.clear();
        let first = line.split_whitespace().next().unwrap_or_default();
        if ["boardbot", "printf", "cargo", "scripts/test.sh", "export", "javac", "java"].contains(&first) {
            out.push(line);
        }
    }
    out
}

/// A shell line's words, quotes kept (a quoted word is one word).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in line.chars() {
        match (quote, c) {
            (None, ' ') => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        word.push(c);
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The words of the boardbot command of `line` (after `| ` when piped).
fn boardbot_words(line: &str) -> Vec<String> {
    let all = words(line);
    let at = all.iter().position(|w| w == "boardbot").expect("a boardbot command");
    all[at..].to_vec()
}

const SUBCOMMANDS: [&str; 14] = [
    "match",
    "play",
    "merge",
    "replay",
    "solve",
    "book",
    "analyze",
    "serve",
    "selfplay",
    "tune",
    "train-net",
    "perft",
    "bench",
    "help",
];

/// The subcommand of a boardbot command's words, if any.
fn subcommand(words: &[String]) -> Option<&str> {
    words.iter().skip(1).find(|w| !w.starts_with('-')).map(String::as_str).filter(|w| SUBCOMMANDS.contains(w))
}

/// `boardbot [SUB] --help`.
fn help(sub: Option<&str>) -> String {
    let out = Command::new(BIN).args(sub).arg("--help").output().expect("boardbot runs");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether `text` names `flag` as a whole word.
fn names_flag(text: &str, flag: &str) -> bool {
    text.match_indices(flag)
        .any(|(at, _)| !text[at + flag.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-'))
}

/// A line with placeholders (`[OPTIONS]`, `FILE`, `GAME ...`): a grammar, not a command.
fn is_synopsis(words: &[String]) -> bool {
    words.iter().any(|w| {
        w.contains('[') || w == "..." || (w.len() <= 8 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
    })
}

#[test]
fn every_flag_the_readme_shows_is_in_the_help() {
    let lines: Vec<String> = command_lines().into_iter().filter(|l| l.contains("boardbot ")).collect();
    assert!(lines.len() >= 20, "{lines:#?}");
    for line in lines.iter().filter(|l| words(l).iter().any(|w| w == "boardbot")) {
        let words = boardbot_words(line);
        let text = help(subcommand(&words));
        for flag in words.iter().filter(|w| w.starts_with("--")) {
            let flag = flag.split('=').next().unwrap();
            assert!(names_flag(&text, flag), "README: `{line}`: {flag} is not in the help:\n{text}");
        }
    }
}

#[test]
fn the_files_the_readme_names_for_other_commands_are_there() {
    for line in command_lines() {
        let first = words(&line)[0].clone();
        match first.as_str() {
            "cargo" => assert!(
                ["cargo run --release", "cargo install --path . --locked"].contains(&line.as_str()),
                "README: a cargo command this test does not know: `{line}`"
            ),
            "scripts/test.sh" => {
                use std::os::unix::fs::PermissionsExt;
                let mode = std::fs::metadata(Path::new(ROOT).join("scripts/test.sh")).unwrap().permissions().mode();
                assert!(mode & 0o111 != 0, "scripts/test.sh is not executable");
            }
            "javac" | "java" | "export" => {
                for w in words(&line).iter().filter(|w| w.starts_with("scripts/")) {
                    assert!(Path::new(ROOT).join(w).is_file(), "README: `{line}`: no {w}");
                }
            }
            _ => {}
        }
    }
    assert!(Path::new(ROOT).join("Cargo.lock").is_file(), "cargo install --locked needs Cargo.lock");
    for jar in ["ManKalah.jar", "MKRefAgent.jar"] {
        assert!(README.contains(&format!("tests/data/kalah/{jar}")), "README does not say where {jar} is");
        assert!(Path::new(ROOT).join("tests/data/kalah").join(jar).is_file(), "no tests/data/kalah/{jar}");
    }
}

/// `line` with short limits: one round, 0.2 s a move, one second a solve, a small table and
/// database, a short book; `boardbot serve` on a free port.
fn shortened(line: &str) -> String {
    let mut w = words(line);
    let sub = subcommand(&boardbot_words(line)).map(str::to_string);
    let mut i = 0;
    while i + 1 < w.len() {
        let value = match w[i].as_str() {
            "--rounds" | "--games" => Some("1".to_string()),
            "--timeout" => Some("0.2".to_string()),
            "--time" => Some("0.1".to_string()),
            "--limit" => Some("1".to_string()),
            "--plies" => Some("1".to_string()),
            "--db" => Some("8".to_string()),
            "--addr" => Some("127.0.0.1:0".to_string()),
            "--hash" => w[i + 1].parse::<usize>().ok().map(|mb| mb.min(64).to_string()),
            _ => None,
        };
        if let Some(v) = value {
            w[i + 1] = v;
            i += 1;
        }
        i += 1;
    }
    if sub.as_deref() == Some("solve") && !w.iter().any(|x| x == "--limit") {
        w.extend(["--limit".to_string(), "1".to_string()]);
    }
    if sub.as_deref() == Some("serve") && !w.iter().any(|x| x == "--addr") {
        w.extend(["--addr".to_string(), "127.0.0.1:0".to_string()]);
    }
    w.join(" ")
}

#[test]
fn every_command_line_of_the_readme_runs_with_short_limits() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("cache")).unwrap();
    std::fs::create_dir_all(dir.join("book")).unwrap();
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for line in command_lines() {
        if !words(&line).iter().any(|w| w == "boardbot") || is_synopsis(&boardbot_words(&line)) {
            continue;
        }
        let short = shortened(&line);
        let long_running = subcommand(&boardbot_words(&line)) == Some("serve");
        let mut child = Command::new("bash")
            .args(["-c", &short])
            .current_dir(&dir)
            .env("PATH", &path)
            .env("BOARDBOT_CACHE", dir.join("cache"))
            .env("BOOK_SECONDS", "0.05")
            .env("BOOK_REPLY_SECONDS", "0.05")
            .env("BOOK_WIDTH", "2")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("bash runs");
        let limit = if long_running { Duration::from_secs(3) } else { Duration::from_secs(600) };
        let start = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break Some(status);
            }
            if start.elapsed() > limit {
                break None;
            }
            std::thread::sleep(Duration::from_millis(50));
        };
        if status.is_none() {
            let _ = child.kill();
        }
        let out = child.wait_with_output().unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        match status {
            Some(s) => assert!(s.success() && !long_running, "README: `{line}` (run as `{short}`): {s}\n{text}"),
            None => assert!(long_running, "README: `{line}` (run as `{short}`) still ran after {limit:?}\n{text}"),
        }
        ran += 1;
    }
    assert!(ran >= 12, "only {ran} commands ran");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's analyze table: (game, depth, nodes of minimax, alpha-beta, ordered, table,
/// symmetric, full).
fn analyze_table() -> Vec<(String, String, Vec<u64>)> {
    README
        .lines()
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect::<Vec<&str>>())
        .filter(|cells| cells.len() == 8 && cells[1].parse::<u32>().is_ok())
        .map(|cells| {
            let game = cells[0].split('`').nth(1).expect("the game in backquotes").to_string();
            let nodes = cells[2..].iter().map(|c| c.replace(',', "").parse().expect("a count")).collect();
            (game, cells[1].to_string(), nodes)
        })
        .collect()
}

#[test]
fn the_readme_analyze_table_is_what_analyze_prints() {
    let table = analyze_table();
    assert_eq!(table.len(), 3, "{table:?}");
    for (game, depth, nodes) in table {
        let out = Command::new(BIN)
            .arg("analyze")
            .args(game.split_whitespace())
            .args(["--depth", &depth])
            .output()
            .expect("boardbot runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{game}: {text}{}", String::from_utf8_lossy(&out.stderr));
        let rows = text.split("\nnodes ").nth(1).expect("the nodes table");
        let row = rows.lines().find(|l| l.split_whitespace().next() == Some(depth.as_str())).expect("the depth's row");
        let printed: Vec<u64> = row
            .split_whitespace()
            .skip(1)
            .filter(|w| !w.starts_with('('))
            .map(|w| w.parse().unwrap_or_else(|_| panic!("{game}: {row}")))
            .collect();
        assert_eq!(printed, nodes, "README's analyze row of {game} at depth {depth} against:\n{row}");
    }
}

#[test]
fn protocol_mode_says_one_line_on_a_terminal_and_nothing_on_a_pipe() {
    let piped = Command::new(BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin.take().unwrap().write_all(b"quit\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert!(piped.status.success());
    assert_eq!(String::from_utf8_lossy(&piped.stderr), "");
    // `script` (util-linux) runs the engine on a terminal of its own.
    let mut script = Command::new("script")
        .args(["-qec", BIN, "/dev/null"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("script (util-linux: apt-get install bsdutils) runs");
    {
        use std::io::Write;
        script.stdin.take().unwrap().write_all(b"quit\n").unwrap();
    }
    let out = script.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let hint = "boardbot: line protocol on stdin; type `help`, or try `boardbot play`";
    assert_eq!(text.matches(hint).count(), 1, "{text}");
}

#[test]
fn no_test_passes_by_skipping() {
    for dir in ["tests", "tests/common"] {
        for entry in std::fs::read_dir(Path::new(ROOT).join(dir)).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|e| e == "rs") && path.file_name().unwrap() != "readme.rs" {
                let text = std::fs::read_to_string(&path).unwrap();
                for (n, l) in text.lines().enumerate() {
                    let l = l.to_ascii_lowercase();
                    assert!(
                        !(l.contains("println!(\"skip") || l.contains("eprintln!(\"skip")),
                        "{}:{}: a test that says it skipped (fail with the install command, or #[ignore] it)",
                        path.display(),
                        n + 1
                    );
                }
            }
        }
    }
}

/// Runs a checkers game with tables big enough for the 5-piece database, in a fresh HOME, and
/// quits while the database is being built; returns the engine's stderr. `pieces`: the
/// BOARDBOT_CHECKERS_PIECES cap (none by default; scripts/test.sh sets 4).
fn checkers_game_quit_mid_build(home: &Path, cache: Option<&Path>, pieces: Option<&str>) -> String {
    use std::io::Write;
    let _ = std::fs::remove_dir_all(home);
    std::fs::create_dir_all(home).unwrap();
    let mut cmd = Command::new(BIN);
    cmd.args(["--hash", "512"]).env("HOME", home).env_remove("XDG_CACHE_HOME").env_remove("BOARDBOT_CACHE");
    match pieces {
        Some(p) => cmd.env("BOARDBOT_CHECKERS_PIECES", p),
        None => cmd.env_remove("BOARDBOT_CHECKERS_PIECES"),
    };
    match cache {
        Some(dir) => cmd.env("BOARDBOT_CACHE", dir),
        None => cmd.env("BOARDBOT_CACHE", "off"),
    };
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"init checkers english false 1\n").unwrap();
    // The 4-piece database is built first (seconds), then the 5-piece one (minutes): quit when
    // its files are there (or after 30 s without a cache folder).
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if cache.is_some_and(|d| std::fs::read_dir(d).is_ok_and(|e| e.count() >= 2)) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        if (cache.is_none() || pieces.is_some()) && start.elapsed() > Duration::from_secs(3) {
            break;
        }
    }
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_quit_during_a_database_build_leaves_no_files_and_off_writes_none() {
    let base = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-cache-{}", std::process::id()));
    let cache = base.join("cache");
    // Capped at 4 pieces (as scripts/test.sh runs the suite): no 5-piece build, nothing written.
    let err = checkers_game_quit_mid_build(&base.join("home"), Some(&cache), Some("4"));
    assert!(!err.contains("5-piece"), "{err}");
    assert!(std::fs::read_dir(&cache).map_or(true, |mut e| e.next().is_none()), "a capped engine wrote its cache");
    let err = checkers_game_quit_mid_build(&base.join("home"), Some(&cache), None);
    assert!(err.contains("building the English checkers 5-piece endgame database"), "{err}");
    assert!(err.contains("45 MB"), "{err}");
    let left: Vec<_> =
        std::fs::read_dir(&cache).map(|e| e.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "left in the cache after quit: {left:?}");
    // A file of a process that no longer runs (4,999,999 is above Linux's largest id) is removed
    // by the next process that uses the folder.
    std::fs::create_dir_all(&cache).unwrap();
    std::fs::write(cache.join("checkers-english-5.dtc.tmp4999999"), b"x").unwrap();
    checkers_game_quit_mid_build(&base.join("home"), Some(&cache), None);
    assert!(!cache.join("checkers-english-5.dtc.tmp4999999").exists());
    // BOARDBOT_CACHE=off: nothing written anywhere in HOME.
    let home = base.join("home-off");
    checkers_game_quit_mid_build(&home, None, None);
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0, "BOARDBOT_CACHE=off wrote to HOME");
    let _ = std::fs::remove_dir_all(&base);
}
