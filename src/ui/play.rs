//! `boardbot play`: a person plays boardbot in a terminal, line by line (piped input works the
//! same way). The games come from the registry and the moves from [`Engine`]; the board, the
//! notation for people and the end in words come from each game's `Render` through
//! [`AnyGame`]: this file never names a game.

use crate::bot::{parse_level, Engine, Options, Value};
use crate::game::any::{AnyGame, GameRecordText, MoveError};
use crate::game::players::Algorithm;
use crate::game::registry::{GameSpec, Resources, GAMES};
use crate::referee::report::{log_line, LOG_HEADER};
use crate::referee::{GameEnd, GameRecord};
use crate::search::{Outcome, Side};
use crate::ui::words::{opinion_words, thought_line};
use anyhow::{anyhow, bail, Result};
use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The game offered first by the step-by-step setup.
const DEFAULT_GAME: &str = "mnk 3 3 3";

/// `boardbot play`: you against the engine in the terminal.
#[derive(clap::Args, Clone, Debug)]
pub struct PlayArgs {
    /// The game as the registry writes it (`mnk 3 3 3`, `cx 6 7 4`, `mnk 7 7 5 blocked 0,0`)
    /// or by its name (`tic-tac-toe`, `gomoku`, `connect4`, `kalah`, `bantumi`, `checkers`);
    /// without it, the setup is asked step by step.
    #[arg(value_name = "GAME")]
    pub game: Vec<String>,
    /// Who you play: first, second, both (two people at one keyboard) or none (the engine
    /// against itself, a demonstration).
    #[arg(long, value_enum)]
    pub you: Option<You>,
    /// The engine's strength: easy, medium, hard, max, or a number from 1 to 10.
    #[arg(long, default_value = "max", value_parser = level_text)]
    pub level: String,
    /// The engine's time per move, in seconds.
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    pub time: f64,
    /// Seed of the random choices (the cells placed out of play, the engine's); without it,
    /// drawn from the operating system: every session plays its own games.
    #[arg(long)]
    pub seed: Option<u64>,
    /// The engine's algorithm: full (its own search) or a textbook one: minimax,
    /// minimax-symmetric, alphabeta, ordered, table, symmetric (alpha-beta with symmetries).
    #[arg(long, default_value = "full")]
    pub algorithm: Algorithm,
    /// The evaluation of a textbook algorithm, by its name (m,n,k and Connect-X: threats, the
    /// engine's, or windows, the open windows counted); the game's own by default.
    #[arg(long)]
    pub evaluation: Option<String>,
    /// The engine's search depth at most, in plies (1 to 64); the time decides without it.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
}

/// Who the person plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum You {
    First,
    Second,
    Both,
    #[value(name = "none")]
    Nobody,
}

impl You {
    fn humans(self) -> [bool; 2] {
        match self {
            You::First => [true, false],
            You::Second => [false, true],
            You::Both => [true, true],
            You::Nobody => [false, false],
        }
    }

    fn parse(text: &str) -> Result<You> {
        match text.to_ascii_lowercase().as_str() {
            "1" | "first" => Ok(You::First),
            "2" | "second" => Ok(You::Second),
            "3" | "both" => Ok(You::Both),
            "4" | "none" => Ok(You::Nobody),
            _ => Err(anyhow!("'{text}' is none of first, second, both, none (or 1 to 4)")),
        }
    }
}

fn level_text(v: &str) -> Result<String> {
    parse_level(v).map(|_| v.to_string())
}

fn seconds(v: &str) -> Result<f64> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(anyhow!("'{v}' is not a number of seconds (more than 0, at most 3600)")),
    }
}

/// Plays on standard input and output: colours when standard output is a terminal and NO_COLOR
/// is unset or empty. The engine starts from `options` (the command line's).
pub fn run(args: PlayArgs, options: Options) -> Result<()> {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if std::io::stdin().is_terminal() {
        // A person at a terminal: line editing and the session's history (the arrow keys).
        if let Ok(editor) = rustyline::DefaultEditor::new() {
            return play(args, options, Editor(editor), std::io::stdout(), colour, false);
        }
    }
    let echo = !std::io::stdin().is_terminal();
    play(args, options, Piped(std::io::stdin().lock()), std::io::stdout().lock(), colour, echo)
}

/// Where the person's lines come from.
pub trait Input {
    /// Shows `prompt` (on `out`, unless the input draws it itself) and reads a line; None at
    /// the end of input.
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Option<String>>;
}

/// Lines from a reader: piped input, the tests.
pub struct Piped<R>(pub R);

impl<R: BufRead> Input for Piped<R> {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Option<String>> {
        write!(out, "{prompt}")?;
        out.flush()?;
        let mut line = String::new();
        if self.0.read_line(&mut line).unwrap_or(0) == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        Ok(Some(line))
    }
}

/// Lines from a terminal through a line editor (rustyline) with history; Ctrl-C and Ctrl-D end
/// the program as `quit` does.
struct Editor(rustyline::DefaultEditor);

impl Input for Editor {
    fn read(&mut self, prompt: &str, out: &mut dyn Write) -> Result<Option<String>> {
        out.flush()?;
        match self.0.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.0.add_history_entry(line.as_str());
                }
                Ok(Some(line))
            }
            Err(rustyline::error::ReadlineError::Interrupted | rustyline::error::ReadlineError::Eof) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

/// Plays reading lines from `input` and writing to `out`; `echo` writes each line read after
/// its prompt (for piped input, so that the transcript reads as typed). End of input ends the
/// program cleanly.
pub fn play(
    args: PlayArgs,
    options: Options,
    input: impl Input,
    out: impl Write,
    colour: bool,
    echo: bool,
) -> Result<()> {
    let mut console = Console { input, out, echo };
    let mut rng = args.seed.map_or_else(SmallRng::from_entropy, SmallRng::seed_from_u64);
    let Some(setup) = setup(&args, &mut console, &mut rng)? else { return Ok(()) };
    if setup.algorithm == Algorithm::Full && setup.evaluation.is_some() {
        bail!("--evaluation chooses a textbook algorithm's evaluation; the full engine uses its own (add --algorithm minimax, alphabeta, ...)");
    }
    let mut engine = Engine::new(Options { seed: args.seed, ..options });
    engine.set_option("level", &setup.level)?;
    engine.set_option("algorithm", setup.algorithm.name())?;
    if let Some(depth) = setup.depth {
        engine.set_value("depth", Value::Number(depth.into()))?;
    }
    if let Some(name) = &setup.evaluation {
        let game = setup.spec.new_game(&Resources::none())?;
        if !game.evaluations().iter().any(|(n, _)| n == name) {
            bail!("{} has no evaluation '{name}' ({})", setup.spec, evaluation_names(game.as_ref()));
        }
        engine.set_option("evaluation", name)?;
    }
    let mut session = Session {
        console,
        colour,
        engine,
        spec: setup.spec,
        humans: setup.you.humans(),
        timeout: Duration::from_secs_f64(args.time),
        level: setup.level,
        algorithm: setup.algorithm,
        evaluation: setup.evaluation,
        depth: setup.depth,
        owners: vec![(0, setup.you.humans())],
        announced: false,
    };
    session.run()
}

/// The names of a game's evaluations, for messages.
fn evaluation_names(game: &dyn AnyGame) -> String {
    game.evaluations().iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// Lines in, text out.
struct Console<R, W> {
    input: R,
    out: W,
    echo: bool,
}

impl<R: Input, W: Write> Console<R, W> {
    /// Writes `prompt` and reads a line, trimmed; None at the end of input.
    fn ask(&mut self, prompt: &str) -> Result<Option<String>> {
        let Some(line) = self.input.read(prompt, &mut self.out)? else { return Ok(None) };
        let line = line.trim().to_string();
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(Some(line))
    }

    fn say(&mut self, text: &str) -> Result<()> {
        writeln!(self.out, "{text}")?;
        Ok(())
    }
}

/// What the setup settled.
struct Setup {
    spec: GameSpec,
    you: You,
    level: String,
    algorithm: Algorithm,
    evaluation: Option<String>,
    depth: Option<u32>,
}

/// `text` wrapped at word boundaries to lines of at most `width` characters, each after `indent`.
fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines
}

/// The game, who plays, the level and the algorithm: from the command line, or asked step by
/// step (Enter takes the default in brackets). None at the end of input.
fn setup<R: Input, W: Write>(args: &PlayArgs, c: &mut Console<R, W>, rng: &mut SmallRng) -> Result<Option<Setup>> {
    let you = args.you.unwrap_or(You::First);
    let mut chosen = Setup {
        spec: GameSpec::parse(DEFAULT_GAME)?,
        you,
        level: args.level.clone(),
        algorithm: args.algorithm,
        evaluation: args.evaluation.clone(),
        depth: args.depth,
    };
    if !args.game.is_empty() {
        chosen.spec = GameSpec::parse(&args.game.join(" "))?;
        return Ok(Some(chosen));
    }
    c.say("boardbot play: the games (type a usage or a name; Enter takes the default in brackets)")?;
    for kind in GAMES {
        c.say(&format!("  {}", kind.usage))?;
        for line in wrap(kind.about, 78, "      ") {
            c.say(&line)?;
        }
    }
    let named: Vec<String> =
        GAMES.iter().flat_map(|k| k.names.iter().map(|(name, desc)| format!("{name} ({desc})"))).collect();
    for line in wrap(&format!("By name: {}.", named.join(", ")), 78, "  ") {
        c.say(&line)?;
    }
    let mut spec = loop {
        let Some(text) = c.ask(&format!("Game and board [{DEFAULT_GAME}]: "))? else { return Ok(None) };
        let text = if text.is_empty() { DEFAULT_GAME.to_string() } else { text };
        match GameSpec::parse(&text) {
            Ok(spec) => break spec,
            Err(e) => c.say(&format!("error: {e}"))?,
        }
    };
    // Games whose description takes cells out of play (`blocked ROW,COL ...`) get some at
    // random if asked.
    if spec.kind().blocked && spec.options().is_empty() {
        let free = free_cells(&spec)?;
        loop {
            let most = free.len().saturating_sub(1);
            let question = format!("Cells out of play, placed at random (0 to {most}) [0]: ");
            let Some(text) = c.ask(&question)? else { return Ok(None) };
            let n = if text.is_empty() { Ok(0) } else { crate::bot::whole_number(&text) };
            match n {
                Ok(n) if (n as usize) < free.len().max(1) => {
                    spec = with_blocked(&spec, n as usize, rng)?;
                    break;
                }
                Ok(_) => c.say(&format!("error: at most {most} cells"))?,
                Err(e) => c.say(&format!("error: {e}"))?,
            }
        }
    }
    chosen.spec = spec;
    let default_you = format!("{you:?}").to_ascii_lowercase().replace("nobody", "none");
    chosen.you = loop {
        let question = format!(
            "Who plays: first (you move first), second (the engine moves first), both (two people), none (the engine against itself) [{default_you}]: "
        );
        let Some(text) = c.ask(&question)? else { return Ok(None) };
        match You::parse(if text.is_empty() { &default_you } else { &text }) {
            Ok(you) => break you,
            Err(e) => c.say(&format!("error: {e}"))?,
        }
    };
    if chosen.you == You::Both {
        return Ok(Some(chosen));
    }
    chosen.level = loop {
        let question = format!("Level: easy, medium, hard, max or a number from 1 to 10 [{}]: ", args.level);
        let Some(text) = c.ask(&question)? else { return Ok(None) };
        let text = if text.is_empty() { args.level.clone() } else { text };
        match parse_level(&text) {
            Ok(_) => break text,
            Err(e) => c.say(&format!("error: {e}"))?,
        }
    };
    let names: Vec<&str> = Algorithm::PLAY.iter().map(|a| a.name()).collect();
    chosen.algorithm = loop {
        let question = format!("Algorithm: {} [{}]: ", names.join(", "), args.algorithm.name());
        let Some(text) = c.ask(&question)? else { return Ok(None) };
        if text.is_empty() {
            break args.algorithm;
        }
        match text.parse::<Algorithm>() {
            Ok(a) => break a,
            Err(e) => c.say(&format!("error: {e}"))?,
        }
    };
    if chosen.algorithm == Algorithm::Full {
        return Ok(Some(chosen));
    }
    let game = chosen.spec.new_game(&Resources::none())?;
    let evaluations = game.evaluations();
    if evaluations.len() > 1 {
        for (name, what) in evaluations {
            c.say(&format!("  {name:<10} {what}"))?;
        }
        let default = args.evaluation.clone().unwrap_or_else(|| evaluations[0].0.to_string());
        chosen.evaluation = loop {
            let Some(text) = c.ask(&format!("Evaluation [{default}]: "))? else { return Ok(None) };
            let text = if text.is_empty() { default.clone() } else { text.to_ascii_lowercase() };
            if evaluations.iter().any(|(n, _)| *n == text) {
                break (text != evaluations[0].0).then_some(text);
            }
            c.say(&format!("error: no evaluation '{text}' ({})", evaluation_names(game.as_ref())))?;
        };
    }
    let default = args.depth.map_or("none".to_string(), |d| d.to_string());
    chosen.depth = loop {
        let question = format!("Depth at most, 1 to 64, or none (the time decides) [{default}]: ");
        let Some(text) = c.ask(&question)? else { return Ok(None) };
        let text = if text.is_empty() { default.clone() } else { text };
        if text.eq_ignore_ascii_case("none") {
            break None;
        }
        match crate::bot::whole_number(&text) {
            Ok(d) if (1..=64).contains(&d) => break Some(d as u32),
            _ => c.say(&format!("error: '{text}' is not a depth from 1 to 64 (or none)"))?,
        }
    };
    Ok(Some(chosen))
}

/// The empty cells of a game's start, as `ROW,COL` (from its view).
pub fn free_cells(spec: &GameSpec) -> Result<Vec<String>> {
    let game = spec.new_game(&Resources::none())?;
    let view = game.view();
    Ok(view
        .cells
        .iter()
        .enumerate()
        .filter(|(_, cell)| cell.content.is_empty())
        .map(|(i, _)| format!("{},{}", i / view.cols, i % view.cols))
        .collect())
}

/// `spec` with `n` of its empty cells out of play (a game whose description takes `blocked
/// ROW,COL ...`), drawn with `rng`.
pub fn with_blocked(spec: &GameSpec, n: usize, rng: &mut SmallRng) -> Result<GameSpec> {
    if n == 0 {
        return Ok(spec.clone());
    }
    let free = free_cells(spec)?;
    let mut cells: Vec<&String> = free.choose_multiple(rng, n).collect();
    cells.sort();
    let text = format!("{spec} blocked {}", cells.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" "));
    GameSpec::parse(&text)
}

/// A game in play.
struct Session<R, W> {
    console: Console<R, W>,
    colour: bool,
    engine: Engine,
    spec: GameSpec,
    /// Whether a person plays each side.
    humans: [bool; 2],
    timeout: Duration,
    level: String,
    algorithm: Algorithm,
    /// The textbook algorithm's evaluation and depth cap as chosen (None: the game's own, the
    /// time decides).
    evaluation: Option<String>,
    depth: Option<u32>,
    /// Who played each side from a ply on: `(ply, humans)` in increasing ply order, the first at
    /// ply 0; `switch` adds one, so the move list keeps who played the earlier moves.
    owners: Vec<(usize, [bool; 2])>,
    /// The result has been written.
    announced: bool,
}

/// What a command line asks for.
enum Next {
    Go,
    Quit,
}

impl<R: Input, W: Write> Session<R, W> {
    fn game(&self) -> &dyn AnyGame {
        self.engine.game().expect("a game is set up")
    }

    /// The moves played so far.
    fn played(&self) -> usize {
        self.game().history().len()
    }

    fn run(&mut self) -> Result<()> {
        self.new_game()?;
        loop {
            let game = self.game();
            let side = game.to_move();
            if game.outcome().is_none() && !self.humans[side.index()] {
                self.engine_turn()?;
                continue;
            }
            if game.outcome().is_some() && !self.announced {
                self.announced = true;
                let result = self.result_line();
                self.console.say(&result)?;
                self.console.say("The game is over: new, undo, moves, save FILE or quit.")?;
            }
            let prompt = if self.game().outcome().is_some() {
                "> ".to_string()
            } else {
                format!("move {}, {} to play> ", self.move_number(), self.label(side))
            };
            let Some(line) = self.console.ask(&prompt)? else { return Ok(()) };
            if let Next::Quit = self.command(&line)? {
                return Ok(());
            }
        }
    }

    fn new_game(&mut self) -> Result<()> {
        self.engine.new_game(&self.spec, true, self.timeout)?;
        self.announced = false;
        let level = match (self.humans, self.algorithm) {
            ([true, true], _) => String::new(),
            (_, Algorithm::Full) => format!(", level {}", self.level),
            (_, a) => {
                let evaluation = self.evaluation.clone().unwrap_or_else(|| {
                    self.game().evaluations().first().map_or("the game's own".to_string(), |(n, _)| n.to_string())
                });
                let depth = self.depth.map_or("the time decides".to_string(), |d| format!("at most {d}"));
                format!(", algorithm {}, evaluation {evaluation}, depth {depth}", a.name())
            }
        };
        self.owners = vec![(0, self.humans)];
        let names = titles(self.game());
        let text = format!(
            "New game: {}; {}: {}, {}: {}{level}, {} s a move. Type help for the commands.",
            self.spec,
            names[0],
            self.who(Side::First),
            names[1],
            self.who(Side::Second),
            self.timeout.as_secs_f64()
        );
        self.console.say(&text)?;
        self.draw()
    }

    /// Who plays `side`, with its name in the game ("you (Black)", "boardbot (O)").
    fn label(&self, side: Side) -> String {
        let piece = self.game().side_names()[side.index()];
        match self.humans {
            [true, true] => format!("{piece} ({} player)", ["first", "second"][side.index()]),
            [false, false] => format!("boardbot {piece}"),
            h if h[side.index()] => format!("you ({piece})"),
            _ => format!("boardbot ({piece})"),
        }
    }

    /// Who plays `side`, without the piece.
    fn who(&self, side: Side) -> &'static str {
        match self.humans {
            [true, true] => ["first player", "second player"][side.index()],
            h if h[side.index()] => "you",
            _ => "boardbot",
        }
    }

    /// Who played `side` at ply `ply` (before any later `switch`).
    fn who_at(&self, ply: usize, side: Side) -> &'static str {
        let humans = self.owners.iter().rev().find(|(from, _)| *from <= ply).map_or(self.humans, |(_, h)| *h);
        match humans {
            [true, true] => ["first player", "second player"][side.index()],
            h if h[side.index()] => "you",
            _ => "boardbot",
        }
    }

    /// The number of the move being played, as the move list numbers them (a number per turn
    /// of the first player; the second player's turn and extra turns keep it).
    fn move_number(&self) -> usize {
        let game = self.game();
        let movers = game.movers();
        let firsts = movers
            .iter()
            .enumerate()
            .filter(|(i, s)| **s == Side::First && (*i == 0 || movers[i - 1] != Side::First))
            .count();
        let starts_turn = game.to_move() == Side::First && movers.last() != Some(&Side::First);
        (firsts + usize::from(starts_turn)).max(1)
    }

    /// A player's name in an opinion: "you", "boardbot", or the side's name when both sides
    /// are people or both the engine.
    fn named(&self, side: Side) -> String {
        match self.humans {
            [true, false] | [false, true] => self.who(side).to_string(),
            _ => self.game().side_names()[side.index()].to_string(),
        }
    }

    /// "you (X) play" or "boardbot (O) plays".
    fn plays(&self, side: Side) -> String {
        let who = self.label(side);
        if who.starts_with("you") {
            format!("{who} play")
        } else {
            format!("{who} plays")
        }
    }

    /// The side drawn nearest the reader: the person's (the first player's if both or none).
    fn bottom(&self) -> Side {
        if self.humans == [false, true] {
            Side::Second
        } else {
            Side::First
        }
    }

    /// The board, then what the last move did and what the rules ask now, in words.
    fn draw(&mut self) -> Result<()> {
        let picture = self.game().board_picture(self.colour, self.bottom());
        self.console.say(picture.trim_end())?;
        for note in self.game().view().notes {
            self.console.say(&note)?;
        }
        Ok(())
    }

    fn result_line(&self) -> String {
        let game = self.game();
        let what = match game.outcome() {
            Some(Outcome::Win(side)) => {
                let who = self.label(side);
                let verb = if who.starts_with("you") { "win" } else { "wins" };
                format!("{who} {verb}")
            }
            Some(Outcome::Draw) => "draw".to_string(),
            None => "not over".to_string(),
        };
        match game.human_end_reason() {
            Some(reason) => format!("Result: {what}; {reason}."),
            None => format!("Result: {what}."),
        }
    }

    /// The engine plays the side to move.
    fn engine_turn(&mut self) -> Result<()> {
        let side = self.game().to_move();
        let before = self.played();
        let turn = self.engine.think(Instant::now(), Arc::new(AtomicBool::new(false)))?;
        let played = self.game().human_history()[before..].join(", ");
        let text = format!("{} {played}", self.plays(side));
        self.console.say(&text)?;
        if let Some(t) = &turn.thought {
            let text = format!("  thought: {}", thought_line(t, &self.named(side), &self.named(side.other())));
            self.console.say(&text)?;
        }
        self.draw()
    }

    /// Sets the game to its first `n` moves.
    fn back_to(&mut self, n: usize) -> Result<()> {
        let history = self.game().history();
        let text = history[..n].join(" ");
        let words: Vec<&str> = text.split_whitespace().collect();
        self.engine.set_position(&words)?;
        self.announced = false;
        Ok(())
    }

    fn error(&mut self, text: &str) -> Result<Next> {
        self.console.say(&format!("error: {text}"))?;
        Ok(Next::Go)
    }

    /// The moves so far, a line per turn: its number, then each side's moves with who played
    /// them.
    fn move_list(&self) -> String {
        let game = self.game();
        let (moves, movers) = (game.human_history(), game.movers());
        if moves.is_empty() {
            return "No moves yet.".to_string();
        }
        let names = game.side_names();
        let mut turns: Vec<(Side, Vec<String>, &str)> = Vec::new();
        for (ply, (mv, side)) in moves.into_iter().zip(movers).enumerate() {
            match turns.last_mut() {
                Some((s, list, _)) if *s == side => list.push(mv),
                _ => turns.push((side, vec![mv], self.who_at(ply, side))),
            }
        }
        let mut lines = Vec::new();
        let mut number = 0;
        let mut line = String::new();
        for (side, list, who) in turns {
            if side == Side::First || line.is_empty() {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                number += 1;
                line = format!("{number:>3}.");
                if side == Side::Second {
                    line.push_str(&format!(" {:<24}", "..."));
                }
            }
            let entry = format!("{} {} ({who})", names[side.index()], list.join(" "));
            if side == Side::First {
                line.push_str(&format!(" {entry:<24}"));
            } else {
                line.push_str(&format!(" {entry}"));
            }
        }
        lines.push(line);
        lines.iter().map(|l| l.trim_end()).collect::<Vec<_>>().join("\n")
    }

    /// One line typed at the prompt: a command or a move.
    fn command(&mut self, line: &str) -> Result<Next> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let over = self.game().outcome().is_some();
        match words[..] {
            [] => Ok(Next::Go),
            ["quit" | "exit" | "q"] => Ok(Next::Quit),
            ["help" | "?"] => {
                let text = help(self.game());
                self.console.say(&text)?;
                Ok(Next::Go)
            }
            ["new"] => {
                self.new_game()?;
                Ok(Next::Go)
            }
            ["moves"] => {
                let text = self.move_list();
                self.console.say(&text)?;
                Ok(Next::Go)
            }
            ["undo"] => {
                let movers = self.game().movers();
                let Some(i) = movers.iter().rposition(|s| self.humans[s.index()]) else {
                    return self.error("undo: no move of yours to take back");
                };
                let taken = movers.len() - i;
                self.back_to(i)?;
                self.console.say(&format!("Took back {taken} move{}.", if taken == 1 { "" } else { "s" }))?;
                self.draw()?;
                Ok(Next::Go)
            }
            ["hint"] if over => self.error("hint: the game is over"),
            ["hint"] => {
                let n = self.played();
                let side = self.game().to_move();
                let turn =
                    self.engine.think(Instant::now(), Arc::new(AtomicBool::new(false)))?;
                let suggestion = self.game().human_history()[n..].join(", ");
                self.back_to(n)?;
                let opinion = turn
                    .thought
                    .as_ref()
                    .and_then(|t| t.opinion.as_ref())
                    .map(|op| format!(" ({})", opinion_words(op, &self.named(side), &self.named(side.other()))))
                    .unwrap_or_default();
                self.console.say(&format!("hint: {suggestion}{opinion}"))?;
                Ok(Next::Go)
            }
            ["switch"] if over => self.error("switch: the game is over (type new)"),
            ["switch"] => {
                let side = self.game().to_move();
                self.humans[side.index()] = false;
                self.humans[side.other().index()] = true;
                let ply = self.played();
                self.owners.retain(|(from, _)| *from < ply);
                self.owners.push((ply, self.humans));
                let names = titles(self.game());
                let text = format!(
                    "Sides changed: {}: {}, {}: {}.",
                    names[0],
                    self.who(Side::First),
                    names[1],
                    self.who(Side::Second)
                );
                self.console.say(&text)?;
                Ok(Next::Go)
            }
            ["level", _] if self.algorithm != Algorithm::Full => self.error(&format!(
                "level sets the full engine's strength; under the textbook algorithm {} the depth and the time decide (type new after restarting with --algorithm full)",
                self.algorithm.name()
            )),
            ["level", level] => match self.engine.set_option("level", level) {
                Ok(()) => {
                    self.level = level.to_string();
                    self.console.say(&format!("Level {level}."))?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&e.to_string()),
            },
            ["level", ..] => self.error("level takes one value: easy, medium, hard, max or a number from 1 to 10"),
            ["save", file] => match self.save(file) {
                Ok(()) => {
                    self.console.say(&format!("Saved to {file} (boardbot replay {file} checks it)."))?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&format!("save: {e:#}")),
            },
            ["save", ..] => self.error("save takes one file name: save FILE"),
            ["export", file] => match self.export(file) {
                Ok(()) => {
                    self.console.say(&format!("Wrote the game to {file} (load {file} reads it back)."))?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&format!("export: {e:#}")),
            },
            ["load", file] => match self.load(file) {
                Ok(n) => {
                    self.console.say(&format!("Loaded {file}: {}, {n} moves.", self.spec))?;
                    self.draw()?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&format!("load: {e:#}")),
            },
            ["export" | "load", ..] => self.error("export and load take one file name: export FILE, load FILE"),
            _ if over => self.error("the game is over: type new, undo, moves, save FILE, export FILE, load FILE or quit"),
            _ => self.human_move(line),
        }
    }

    /// `line` names an occupied cell by its coordinates (column label then row label, as
    /// "h8"): that cell's name.
    fn taken_cell(&self, line: &str) -> Option<String> {
        let view = self.game().view();
        let typed = line.trim().to_ascii_lowercase();
        for (i, cell) in view.cells.iter().enumerate() {
            let (Some(col), Some(row)) = (view.col_labels.get(i % view.cols), view.row_labels.get(i / view.cols))
            else {
                continue;
            };
            if col.is_empty() || row.is_empty() || cell.content.is_empty() || cell.content == "#" {
                continue;
            }
            if format!("{col}{row}").to_ascii_lowercase() == typed {
                return Some(typed);
            }
        }
        None
    }

    fn human_move(&mut self, line: &str) -> Result<Next> {
        let game = self.game();
        let side = game.to_move();
        let text = match game.parse_human(line) {
            Ok(text) => text,
            Err(MoveError::Unreadable(_)) if line.trim().eq_ignore_ascii_case("swap") => {
                return self.error(
                    "swap is a move only under Kalah's pie rule (the second player's first move); to change sides, type switch",
                )
            }
            Err(MoveError::Unreadable(e)) => return self.error(&format!("{e}; or type help")),
            Err(MoveError::Illegal(_)) if self.taken_cell(line).is_some() => {
                let cell = self.taken_cell(line).unwrap_or_default();
                return self.error(&format!("{cell} is taken"));
            }
            Err(MoveError::Illegal(e)) => {
                let legal: Vec<String> = game.legal_moves().iter().map(|m| game.human_move(m)).collect();
                let shown =
                    if legal.len() > 12 { format!("{}, ...", legal[..12].join(", ")) } else { legal.join(", ") };
                return self.error(&format!("{e}; the legal moves: {shown}"));
            }
        };
        let mut moves = game.history();
        moves.push(text);
        let joined = moves.join(" ");
        let words: Vec<&str> = joined.split_whitespace().collect();
        let n = self.played();
        self.engine.set_position(&words)?;
        let played = self.game().human_history()[n..].join(", ");
        let text = format!("{} {played}", self.plays(side));
        self.console.say(&text)?;
        self.draw()?;
        Ok(Next::Go)
    }

    /// Writes the game as a match's game log (`boardbot replay FILE` reads it); the game must
    /// be over (a log's line holds a result, which replay checks).
    /// Writes the game so far in its players' format (PDN, psq, a column string) or boardbot's
    /// own ([`crate::game::record`]).
    fn export(&self, file: &str) -> Result<()> {
        let game = self.game();
        let name = |side: Side| if self.humans[side.index()] { "You" } else { "boardbot" }.to_string();
        let result = crate::game::record::result_text(game.outcome());
        let record = GameRecordText {
            event: "boardbot play".into(),
            number: 1,
            players: [name(Side::First), name(Side::Second)],
            moves: game.history(),
            result: result.into(),
            reason: game.human_end_reason().unwrap_or_default(),
            notes: Vec::new(),
        };
        std::fs::write(file, crate::game::record::export(game, &record).1)?;
        Ok(())
    }

    /// Starts the game of a record file at its last move (the sides' players kept); returns
    /// its number of moves. A file that is not a legal game changes nothing.
    fn load(&mut self, file: &str) -> Result<usize> {
        let bytes = std::fs::read(file)?;
        if bytes.len() > crate::game::record::MAX_RECORD_BYTES {
            bail!("{} bytes: a record is at most {}", bytes.len(), crate::game::record::MAX_RECORD_BYTES);
        }
        let text = String::from_utf8(bytes).map_err(|_| anyhow!("not a text file"))?;
        let (spec, moves) = crate::game::record::import(&text)?;
        let old = std::mem::replace(&mut self.spec, spec);
        let started = self.new_game().and_then(|()| {
            let words: Vec<&str> = moves.iter().flat_map(|m| m.split_whitespace()).collect();
            self.engine.set_position(&words)
        });
        if let Err(e) = started {
            self.spec = old;
            self.new_game()?;
            return Err(e);
        }
        Ok(moves.len())
    }

    fn save(&self, file: &str) -> Result<()> {
        let game = self.game();
        let end = match game.outcome() {
            Some(outcome) => GameEnd::Played(outcome),
            None if game.is_dead_draw() => GameEnd::DeadDraw,
            None => bail!("the game is not over yet (a game log holds finished games: replay checks their result)"),
        };
        let name = |side: Side| if self.humans[side.index()] { "human" } else { "boardbot" };
        let record = GameRecord {
            number: 0,
            spec: self.spec.clone(),
            first: 0,
            moves: game.history(),
            end,
            replies: [Vec::new(), Vec::new()],
        };
        let text = format!("{LOG_HEADER}\n{}\n", log_line(&record, [name(Side::First), name(Side::Second)]));
        std::fs::write(file, text)?;
        Ok(())
    }
}

/// The players' names with the marks the text board draws for them where those differ
/// ("Black (X)"), the first player's first.
fn titles(game: &dyn AnyGame) -> [String; 2] {
    let names = game.side_names();
    match game.side_marks() {
        Some(marks) => [0, 1].map(|i| format!("{} ({})", names[i], marks[i])),
        None => names.map(str::to_string),
    }
}

/// The commands and the notation of `game`.
fn help(game: &dyn AnyGame) -> String {
    let names = titles(game);
    format!(
        "Type a move: {}.\n\
         Commands:\n  \
           help         this text\n  \
           undo         take back your last move (and the engine's reply)\n  \
           hint         the engine's suggestion, not played\n  \
           moves        the moves so far, by turn\n  \
           new          a new game, the same sides\n  \
           switch       change sides: the engine takes the side to move\n  \
           level L      the engine's strength: easy, medium, hard, max or a number from 1 to 10\n  \
           save FILE    the finished game as a match log (boardbot replay FILE reads it)\n  \
           export FILE  the game so far as PDN (checkers), psq (gomoku), a column string\n  \
                        (Connect-4) or boardbot's own text\n  \
           load FILE    a game from such a file, played on from its last move\n  \
           quit         leave (so does the end of input)\n\
         The board: {} moves first; the last move is marked with brackets.",
        game.notation_help(),
        names[0]
    )
}
