//! docs/adding-a-game.md, checked: the take-away game it walks through, written here as a new
//! game's folder would hold it (rules, pictures, knowledge, registry entry), built through its
//! registry entry and driven only through the registry's object-safe interface (`AnyGame`), as
//! the protocol, the referee and the user interfaces drive every game.
//!
//! Take-away: a row of stones; each player in turn takes 1, 2 or 3; who takes the last stone
//! wins. The player to move loses exactly when the stones left are a multiple of 4.

use boardbot::game::players::{Algorithm, Player, Request};
use boardbot::game::playing::Playing;
use boardbot::game::registry::{GameSpec, GameType, Resources};
use boardbot::game::render::{Render, View, ViewCell, ViewMove};
use boardbot::search::zobrist::splitmix;
use boardbot::search::{Candidate, Game, Knowledge, Limits, Outcome, RootKnowledge, Score, Searcher, Side};
use rand::rngs::SmallRng;
use rand::SeedableRng;

// ---- the rules (src/game/takeaway/mod.rs) ----

/// The stones left, and the moves played (stones taken), for undo.
#[derive(Clone, Debug)]
struct TakeAway {
    left: u32,
    taken: Vec<u32>,
}

/// This game's hash salt. A game of the repository adds its line to `src/game/salt.rs` instead.
const SALT: u64 = 0x7a6b;

/// The most stones a move takes.
const MOST: u32 = 3;

impl Game for TakeAway {
    /// A move: how many stones it takes, 1..=3.
    type Move = u32;

    fn to_move(&self) -> Side {
        Side::after_moves(self.taken.len())
    }
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend(1..=MOST.min(self.left));
    }
    fn is_legal(&self, mv: u32) -> bool {
        (1..=MOST).contains(&mv) && mv <= self.left
    }
    fn play(&mut self, mv: u32) {
        self.left -= mv;
        self.taken.push(mv);
    }
    fn undo(&mut self) {
        self.left += self.taken.pop().expect("a move to take back");
    }
    fn moves_played(&self) -> usize {
        self.taken.len()
    }
    fn hash(&self) -> u64 {
        splitmix(SALT << 40 | (self.left as u64) << 1 | self.to_move().index() as u64)
    }
    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last stone wins: the side to move has lost.
        (self.left == 0).then(|| Outcome::Win(self.to_move().other()))
    }
    fn move_key(&self, mv: u32) -> u32 {
        mv - 1
    }
    fn move_key_space(&self) -> usize {
        MOST as usize
    }
    fn move_for_key(&self, key: u32) -> Option<u32> {
        Some(key + 1).filter(|&mv| self.is_legal(mv))
    }
    fn parse_move(&self, text: &str) -> anyhow::Result<u32> {
        match text.trim().parse::<u32>() {
            Ok(mv) if (1..=MOST).contains(&mv) && text.trim().bytes().all(|b| b.is_ascii_digit()) => Ok(mv),
            _ => Err(anyhow::anyhow!("'{text}' is not a move: take 1 to {MOST} stones")),
        }
    }
    fn format_move(&self, mv: u32) -> String {
        mv.to_string()
    }
}

// ---- the pictures (src/game/takeaway/entry.rs) ----

impl Render for TakeAway {
    fn board_text(&self) -> String {
        format!("{} stones left\n", self.left)
    }
    /// One row of cells, a stone in each; a click on the k-th stone from the end takes k.
    fn view(&self) -> View {
        let cells = (0..self.left)
            .map(|i| {
                let take = self.left - i;
                ViewCell::new("o", self.is_legal(take).then(|| take.to_string()))
            })
            .collect();
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let moves = moves
            .iter()
            .map(|m| ViewMove { text: m.to_string(), keys: vec![m.to_string()], human: m.to_string() })
            .collect();
        View::grid(1, self.left as usize, cells, moves)
    }
}

// ---- the knowledge (src/game/takeaway/knowledge.rs) ----

/// No evaluation worth the name: every position is even until the search sees the end.
struct Plain;

impl Knowledge<TakeAway> for Plain {
    fn evaluate(&self, _g: &TakeAway) -> Score {
        0
    }
    fn winning_move(&self, g: &TakeAway) -> Option<u32> {
        (1..=MOST).contains(&g.left).then_some(g.left)
    }
    fn quiet(&self, _g: &TakeAway) -> bool {
        true
    }
    fn candidates(&self, g: &TakeAway, out: &mut Vec<Candidate<u32>>) -> bool {
        out.extend((1..=MOST.min(g.left)).map(|mv| Candidate { mv, score: mv as i64 }));
        true
    }
}

/// No exact solver, book or weights: what is asked once a move keeps its defaults.
impl RootKnowledge<TakeAway> for Plain {}

// ---- the registry entry (src/game/takeaway/entry.rs, and one line in registry::GAMES) ----

static TAKE_AWAY: GameType = GameType {
    name: "takeaway",
    size_words: 1,
    usage: "takeaway STONES",
    about: "Take-away: take 1 to 3 stones in turn, who takes the last one wins",
    title: "take-away",
    names: &[("nim", "takeaway 21")],
    examples: &["takeaway 21"],
    points: [1, 1, 0],
    build,
    ..GameType::DEFAULTS
};

fn build(words: &[&str], _resources: &Resources) -> anyhow::Result<Box<dyn boardbot::game::any::AnyGame>> {
    let [stones] = words else { anyhow::bail!("expected the number of stones") };
    let left = stones
        .parse::<u32>()
        .ok()
        .filter(|&n| (1..=1000).contains(&n) && stones.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| anyhow::anyhow!("STONES must be a whole number in 1..=1000, got '{stones}'"))?;
    let spec = GameSpec::new(&TAKE_AWAY, vec![left.to_string()]);
    Ok(Box::new(Playing::new(spec, TakeAway { left, taken: Vec::new() }, Plain)))
}

// ---- what a new game gets for free ----

fn new_game(stones: &str) -> Box<dyn boardbot::game::any::AnyGame> {
    (TAKE_AWAY.build)(&[stones], &Resources::none()).unwrap()
}

/// A search to a fixed depth: what it plays does not depend on the machine's speed.
fn request() -> Request {
    Request {
        player: Player::Search,
        level: 10,
        max_depth: 30,
        threads: 1,
        limits: Limits::depth(30),
        algorithm: Algorithm::Full,
        evaluation: None,
    }
}

#[test]
fn the_walkthrough_game_builds_through_its_entry_and_refuses_bad_descriptions() {
    let game = new_game("10");
    assert_eq!(game.spec().to_string(), "takeaway 10");
    assert!(game.legal_moves().len() == 3);
    for bad in ["0", "-1", "+5", "ten", "1001"] {
        assert!((TAKE_AWAY.build)(&[bad], &Resources::none()).is_err(), "{bad}");
    }
    assert!((TAKE_AWAY.build)(&[], &Resources::none()).is_err());
}

#[test]
fn the_walkthrough_game_keeps_the_rules_contract() {
    let report = new_game("25").check_rules(1, 200).unwrap();
    assert_eq!(report.playouts, 200);
    assert_eq!(report.results[0] + report.results[1], 200, "every playout ends in a win");
    // A broken rule is caught: a game whose undo forgets the side to move would fail here (the
    // contract's own unit tests break each rule on purpose).
}

#[test]
fn the_search_plays_the_walkthrough_game_perfectly() {
    // From N stones the side to move wins exactly when N is not a multiple of 4, by leaving one.
    for n in [5u32, 6, 7, 9, 10, 11, 13, 30, 31] {
        let mut game = new_game(&n.to_string());
        let mut searcher = Searcher::new(1);
        let mut rng = SmallRng::seed_from_u64(n as u64);
        let turn = game.think(&mut searcher, &mut rng, &request());
        assert_eq!(turn.moves, vec![(n % 4).to_string()], "from {n} stones");
    }
    // A whole game between two searches from a won position: the first player wins.
    let mut game = new_game("21");
    let mut searcher = Searcher::new(1);
    let mut rng = SmallRng::seed_from_u64(0);
    while game.outcome().is_none() {
        game.think(&mut searcher, &mut rng, &request());
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Side::First)));
}
