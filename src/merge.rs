//! `boardbot merge FILES...`: the files of a match's shards (`match --shard I/N --results FILE`,
//! merged by [`crate::referee::merge`]) or of a self-play run's shards (`selfplay --shard I/N`,
//! merged by [`crate::selfplay::merge_selfplay`]) put back together as one run's.

use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Puts the files of a match's or a self-play run's shards together.
#[derive(Args, Clone, Debug)]
pub struct MergeArgs {
    /// Results files of one match (`match --results`), or self-play files of one run.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Writes the merged file: the counted games as one results file, or the self-play file.
    /// Self-play files are merged to stdout without it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Match results: prints the merged figures as one JSON object (games, pairs, pentanomial,
    /// score and error bar, LLR, bounds, verdict) instead of the report.
    #[arg(long)]
    json: bool,
}

/// How a self-play file starts (its header's first line).
const SELFPLAY_HEADER: &str = "# boardbot selfplay:";

/// Runs `boardbot merge`: self-play files start with their `#` header, results files do not.
pub fn run(args: MergeArgs) -> Result<()> {
    let mut files = Vec::new();
    for path in &args.files {
        let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        files.push((path.display().to_string(), text));
    }
    for (name, text) in &files {
        // Results files have no `#` lines; self-play files start with their header.
        if text.starts_with('#') && !text.starts_with(SELFPLAY_HEADER) {
            let first = text.lines().next().unwrap_or_default();
            if first == crate::referee::report::LOG_HEADER {
                bail!(
                    "{name} is a match's game log (match --log; `boardbot replay` reads it): merge takes results files (match --results) or self-play files (selfplay)"
                );
            }
            bail!(
                "{name} is neither a results file (match --results) nor a self-play file (selfplay): its first line is '{}'",
                first.chars().take(80).collect::<String>()
            );
        }
    }
    let selfplay = files.iter().all(|(_, text)| text.starts_with('#'));
    if !selfplay && files.iter().any(|(_, text)| text.starts_with('#')) {
        bail!("give either results files (match --results) or self-play files, not both");
    }
    if !selfplay {
        return crate::referee::merge::run(&files, args.out.as_deref(), args.json);
    }
    if args.json {
        bail!("--json is for results files");
    }
    let merged = crate::selfplay::merge_selfplay(&files)?;
    match &args.out {
        Some(path) => std::fs::write(path, merged.text()).with_context(|| format!("writing {}", path.display()))?,
        None => std::io::stdout().write_all(merged.text().as_bytes())?,
    }
    let missing = merged.missing();
    eprintln!(
        "merged {} self-play file(s): {} games; {} duplicate game(s) counted once; {} file(s) ending in a game cut off (dropped){}",
        files.len(),
        merged.games.len(),
        merged.duplicates,
        merged.cut,
        match missing.len() {
            0 => String::new(),
            n => format!("; {n} game number(s) missing: {missing:?}"),
        }
    );
    Ok(())
}
