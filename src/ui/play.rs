//! `boardbot play`: a person plays boardbot in a terminal, line by line (piped input works the
//! same way). The games come from the registry and the moves from [`Engine`]; the board, the
//! notation for people and the end in words come from each game's `Render` through
//! [`AnyGame`]: this file never names a game.

use crate::bot::{parse_level, Engine, Options};
use crate::game::any::{AnyGame, MoveError, Thought};
use crate::game::registry::{GameSpec, Resources, GAMES};
use crate::referee::report::{log_line, LOG_HEADER};
use crate::referee::{GameEnd, GameRecord};
use crate::search::{Outcome, Side};
use anyhow::{bail, Result};
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
    /// The game as the registry writes it (`mnk 3 3 3`, `cx 6 7 4`, `mnk 7 7 5 blocked 0,0`);
    /// without it, the setup is asked step by step.
    #[arg(value_name = "GAME")]
    pub game: Vec<String>,
    /// Who you play: first, second, both (two people at one keyboard) or none (the engine
    /// against itself, a demonstration).
    #[arg(long, value_enum)]
    pub you: Option<You>,
    /// The engine's strength: easy, medium, hard, max, or 1..=10.
    #[arg(long, default_value = "max", value_parser = level_text)]
    pub level: String,
    /// The engine's time per move, in seconds.
    #[arg(long, default_value_t = 1.0, value_parser = seconds)]
    pub time: f64,
    /// Seed of the random choices (the cells placed out of play, the engine's).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
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

    fn parse(text: &str) -> Result<You, String> {
        match text.to_ascii_lowercase().as_str() {
            "1" | "first" => Ok(You::First),
            "2" | "second" => Ok(You::Second),
            "3" | "both" => Ok(You::Both),
            "4" | "none" => Ok(You::Nobody),
            _ => Err(format!("'{text}' is none of first, second, both, none (or 1..4)")),
        }
    }
}

fn level_text(v: &str) -> Result<String, String> {
    parse_level(v).map(|_| v.to_string())
}

fn seconds(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err(format!("'{v}' is not a number of seconds (more than 0, at most 3600)")),
    }
}

/// Plays on standard input and output: colours when standard output is a terminal and NO_COLOR
/// is unset or empty.
pub fn run(args: PlayArgs) -> Result<()> {
    let colour = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    if std::io::stdin().is_terminal() {
        // A person at a terminal: line editing and the session's history (the arrow keys).
        if let Ok(editor) = rustyline::DefaultEditor::new() {
            return play(args, Editor(editor), std::io::stdout(), colour, false);
        }
    }
    let echo = !std::io::stdin().is_terminal();
    play(args, Piped(std::io::stdin().lock()), std::io::stdout().lock(), colour, echo)
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
pub fn play(args: PlayArgs, input: impl Input, out: impl Write, colour: bool, echo: bool) -> Result<()> {
    let mut console = Console { input, out, echo };
    let Some((spec, you, level)) = setup(&args, &mut console)? else { return Ok(()) };
    let mut engine = Engine::new(Options { seed: args.seed, ..Options::default() });
    engine.set_option("level", &level).map_err(anyhow::Error::msg)?;
    let mut session = Session {
        console,
        colour,
        engine,
        spec,
        humans: you.humans(),
        timeout: Duration::from_secs_f64(args.time),
        level,
        movers: Vec::new(),
        announced: false,
    };
    session.run()
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

/// The game, who plays and the level: from the command line, or asked step by step (Enter
/// takes the default in brackets). None at the end of input.
fn setup<R: Input, W: Write>(args: &PlayArgs, c: &mut Console<R, W>) -> Result<Option<(GameSpec, You, String)>> {
    let you = args.you.unwrap_or(You::First);
    if !args.game.is_empty() {
        let text = args.game.join(" ");
        let spec = GameSpec::parse(&text).map_err(anyhow::Error::msg)?;
        return Ok(Some((spec, you, args.level.clone())));
    }
    c.say("boardbot play: the games (type one as its usage shows; Enter takes the default in brackets)")?;
    for kind in GAMES {
        c.say(&format!("  {:<32} {}", kind.usage, kind.about))?;
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
    if spec.kind().usage.contains("blocked ROW,COL") && spec.options().is_empty() {
        let free = free_cells(&spec)?;
        loop {
            let question = format!("Cells out of play, placed at random (0..{}) [0]: ", free.len().saturating_sub(1));
            let Some(text) = c.ask(&question)? else { return Ok(None) };
            let n = if text.is_empty() { Ok(0) } else { crate::bot::whole_number(&text) };
            match n {
                Ok(n) if (n as usize) < free.len().max(1) => {
                    spec = with_blocked(&spec, &free, n as usize, args.seed)?;
                    break;
                }
                Ok(_) => c.say(&format!("error: at most {} cells", free.len().saturating_sub(1)))?,
                Err(e) => c.say(&format!("error: {e}"))?,
            }
        }
    }
    let default_you = format!("{you:?}").to_ascii_lowercase().replace("nobody", "none");
    let you = loop {
        let question = format!(
            "Who plays: first (you move first), second (the engine moves first), both (two people), none (the engine against itself) [{default_you}]: "
        );
        let Some(text) = c.ask(&question)? else { return Ok(None) };
        match You::parse(if text.is_empty() { &default_you } else { &text }) {
            Ok(you) => break you,
            Err(e) => c.say(&format!("error: {e}"))?,
        }
    };
    let mut level = args.level.clone();
    if you != You::Both {
        level = loop {
            let Some(text) = c.ask(&format!("Level: easy, medium, hard, max or 1..10 [{}]: ", args.level))? else {
                return Ok(None);
            };
            let text = if text.is_empty() { args.level.clone() } else { text };
            match parse_level(&text) {
                Ok(_) => break text,
                Err(e) => c.say(&format!("error: {e}"))?,
            }
        };
    }
    Ok(Some((spec, you, level)))
}

/// The empty cells of a game's start, as `ROW,COL` (from its view).
fn free_cells(spec: &GameSpec) -> Result<Vec<String>> {
    let game = spec.new_game(&Resources::none()).map_err(anyhow::Error::msg)?;
    let view = game.view();
    Ok(view
        .cells
        .iter()
        .enumerate()
        .filter(|(_, cell)| cell.content.is_empty())
        .map(|(i, _)| format!("{},{}", i / view.cols, i % view.cols))
        .collect())
}

/// `spec` with `n` of the `free` cells out of play, chosen from `seed`.
fn with_blocked(spec: &GameSpec, free: &[String], n: usize, seed: u64) -> Result<GameSpec> {
    if n == 0 {
        return Ok(spec.clone());
    }
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut cells: Vec<&String> = free.choose_multiple(&mut rng, n).collect();
    cells.sort();
    let text = format!("{spec} blocked {}", cells.iter().map(|c| c.as_str()).collect::<Vec<_>>().join(" "));
    GameSpec::parse(&text).map_err(anyhow::Error::msg)
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
    /// The side that played each move so far.
    movers: Vec<Side>,
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
                self.console.say("The game is over: new, undo, save FILE or quit.")?;
            }
            let prompt = if self.game().outcome().is_some() {
                "> ".to_string()
            } else {
                format!("move {}, {} to play> ", self.movers.len() + 1, self.label(side))
            };
            let Some(line) = self.console.ask(&prompt)? else { return Ok(()) };
            if let Next::Quit = self.command(&line)? {
                return Ok(());
            }
        }
    }

    fn new_game(&mut self) -> Result<()> {
        self.engine.new_game(&self.spec, true, self.timeout).map_err(anyhow::Error::msg)?;
        self.movers.clear();
        self.announced = false;
        let level = if self.humans == [true, true] { String::new() } else { format!(", level {}", self.level) };
        let text = format!(
            "New game: {}; X: {}, O: {}{level}, {} s a move. Type help for the commands.",
            self.spec,
            self.who(Side::First),
            self.who(Side::Second),
            self.timeout.as_secs_f64()
        );
        self.console.say(&text)?;
        self.draw()
    }

    /// Who plays `side`, with its piece.
    fn label(&self, side: Side) -> String {
        let piece = ["X", "O"][side.index()];
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

    /// "you (X) play" or "boardbot (O) plays".
    fn plays(&self, side: Side) -> String {
        let who = self.label(side);
        if who.starts_with("you") {
            format!("{who} play")
        } else {
            format!("{who} plays")
        }
    }

    fn draw(&mut self) -> Result<()> {
        let picture = self.game().board_picture(self.colour);
        self.console.say(&picture)
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
        let before = self.movers.len();
        let turn = self.engine.think(Instant::now(), Arc::new(AtomicBool::new(false))).map_err(anyhow::Error::msg)?;
        self.movers.extend(turn.moves.iter().map(|_| side));
        let played = self.game().human_history()[before..].join(", ");
        let text = format!("{} {played}", self.plays(side));
        self.console.say(&text)?;
        if let Some(t) = &turn.thought {
            let text = format!("  thought: {}", thought_words(t));
            self.console.say(&text)?;
        }
        self.draw()
    }

    /// Sets the game to its first `n` moves.
    fn back_to(&mut self, n: usize) -> Result<()> {
        let history = self.game().history();
        let text = history[..n].join(" ");
        let words: Vec<&str> = text.split_whitespace().collect();
        self.engine.set_position(&words).map_err(anyhow::Error::msg)?;
        self.movers.truncate(n);
        self.announced = false;
        Ok(())
    }

    fn error(&mut self, text: &str) -> Result<Next> {
        self.console.say(&format!("error: {text}"))?;
        Ok(Next::Go)
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
            ["undo"] => {
                let Some(i) = self.movers.iter().rposition(|s| self.humans[s.index()]) else {
                    return self.error("undo: no move of yours to take back");
                };
                let taken = self.movers.len() - i;
                self.back_to(i)?;
                self.console.say(&format!("Took back {taken} move{}.", if taken == 1 { "" } else { "s" }))?;
                self.draw()?;
                Ok(Next::Go)
            }
            ["hint"] if over => self.error("hint: the game is over"),
            ["hint"] => {
                let n = self.movers.len();
                let turn =
                    self.engine.think(Instant::now(), Arc::new(AtomicBool::new(false))).map_err(anyhow::Error::msg)?;
                let suggestion = self.game().human_history()[n..].join(", ");
                self.back_to(n)?;
                let thought = turn.thought.as_ref().map(|t| format!(" ({})", thought_words(t))).unwrap_or_default();
                self.console.say(&format!("hint: {suggestion}{thought}"))?;
                Ok(Next::Go)
            }
            ["swap"] if over => self.error("swap: the game is over (type new)"),
            ["swap"] => {
                let side = self.game().to_move();
                self.humans[side.index()] = false;
                self.humans[side.other().index()] = true;
                let text = format!("Sides changed: X: {}, O: {}.", self.who(Side::First), self.who(Side::Second));
                self.console.say(&text)?;
                Ok(Next::Go)
            }
            ["level", level] => match self.engine.set_option("level", level) {
                Ok(()) => {
                    self.level = level.to_string();
                    self.console.say(&format!("Level {level}."))?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&e),
            },
            ["level", ..] => self.error("level takes one value: easy, medium, hard, max or 1..10"),
            ["save", file] => match self.save(file) {
                Ok(()) => {
                    self.console.say(&format!("Saved to {file} (boardbot replay {file} checks it)."))?;
                    Ok(Next::Go)
                }
                Err(e) => self.error(&format!("save: {e:#}")),
            },
            ["save", ..] => self.error("save takes one file name: save FILE"),
            _ if over => self.error("the game is over: type new, undo, save FILE or quit"),
            _ => self.human_move(line),
        }
    }

    fn human_move(&mut self, line: &str) -> Result<Next> {
        let game = self.game();
        let side = game.to_move();
        let text = match game.parse_human(line) {
            Ok(text) => text,
            Err(MoveError::Unreadable(e)) => return self.error(&format!("{e}; or type help")),
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
        self.engine.set_position(&words).map_err(anyhow::Error::msg)?;
        let n = self.movers.len();
        self.movers.push(side);
        let played = self.game().human_history()[n..].join(", ");
        let text = format!("{} {played}", self.plays(side));
        self.console.say(&text)?;
        self.draw()?;
        Ok(Next::Go)
    }

    /// Writes the game as a match's game log (`boardbot replay FILE` reads it); the game must
    /// be over (a log's line holds a result, which replay checks).
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

/// What the engine thought, in words: depth, score, nodes, time.
fn thought_words(t: &Thought) -> String {
    if t.nodes == 0 && !t.proved {
        return "a forced move, no search".to_string();
    }
    format!("depth {}, {}, {} nodes, {:.2} s", t.depth, t.words, t.nodes, t.elapsed.as_secs_f64())
}

/// The commands and the notation of `game`.
fn help(game: &dyn AnyGame) -> String {
    format!(
        "Type a move: {}.\n\
         Commands:\n  \
           help         this text\n  \
           undo         take back your last move (and the engine's reply)\n  \
           hint         the engine's suggestion, not played\n  \
           new          a new game, the same sides\n  \
           swap         change sides: the engine takes the side to move\n  \
           level L      the engine's strength: easy, medium, hard, max or 1..10\n  \
           save FILE    the finished game as a match log (boardbot replay FILE reads it)\n  \
           quit         leave (so does the end of input)\n\
         The board: X moves first; [X] is the last move, (X) the winning line, # a cell out of play.",
        game.notation_help()
    )
}
