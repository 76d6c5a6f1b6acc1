//! The GUI side of the Hub protocol: one engine process, driven by the match runner
//! and by the web board.
//!
//! The engine's stdout is read by a thread that forwards each line over a channel,
//! so every wait has a deadline: an engine that hangs is detected and killed.
//! stderr is discarded or passed through ([`EngineStderr`]). Dropping an
//! [`EngineProc`] kills the process.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};

use crate::board::{Position, Variant};
use crate::clock::Limits;
use crate::protocol::parser::{GoMode, PositionSpec};
use crate::protocol::response::Param;
use crate::protocol::{Command, Response, parse_response};

/// How to start one engine and what to tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// Name used in PDN tags, messages and the summary.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// `set-param` name/value pairs sent during the handshake.
    pub options: Vec<(String, String)>,
    /// `set-param` pairs sent only to an engine that declares the parameter and is not
    /// given it in `options`: the game's rules (`draw-moves`), which other engines may
    /// not know.
    pub if_declared: Vec<(String, String)>,
    /// The game played. Italian is the Hub default, told only to an engine given
    /// `variant` in `options`; any other is sent as `set-param name=variant`, and an
    /// engine that does not declare that value is refused before `init`.
    pub variant: Variant,
    /// A node limit for each of this engine's moves, instead of the match's (`nodes=N`:
    /// node odds, e.g. to weigh a slower evaluation at the nodes it reaches in a given time).
    pub nodes: Option<u64>,
}

/// Why talking to an engine failed. Each ends the engine's game as a loss.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineFailure {
    /// The process could not be started.
    Spawn(String),
    /// The process closed its output (exited or crashed).
    Crash(String),
    /// No answer before the deadline.
    Timeout,
    /// A malformed line, an `error` answer, or a `done` without a move.
    Protocol(String),
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineFailure::Spawn(m) => write!(f, "cannot start: {m}"),
            EngineFailure::Crash(m) => write!(f, "crash ({m})"),
            EngineFailure::Timeout => f.write_str("time forfeit"),
            EngineFailure::Protocol(m) => write!(f, "protocol error: {m}"),
        }
    }
}

/// The answer to one `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The move, as the engine wrote it; `None` for a plain `done`.
    pub mv: Option<String>,
    /// Last reported score (men, side to move's view).
    pub score: Option<f64>,
    /// Last reported depth.
    pub depth: Option<u32>,
    /// Time from `go` to `done`.
    pub elapsed: Duration,
}

/// Where the engine's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineStderr {
    /// Thrown away (matches: many engines, noisy logs).
    Discard,
    /// Written to this process's stderr (the web board's log).
    Inherit,
}

/// A running engine.
pub struct EngineProc {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    name: Option<String>,
    params: Vec<Param>,
}

/// Reads lines (lossy UTF-8) until end of output, forwarding them.
fn spawn_reader(stdout: ChildStdout) -> Receiver<String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match reader.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

impl EngineProc {
    /// Starts the engine and runs the handshake: `hub` → `wait`, one `set-param` per
    /// option, `init` → `ready`, each answer within `timeout`.
    pub fn start(spec: &EngineSpec, timeout: Duration) -> Result<EngineProc, EngineFailure> {
        Self::start_with(spec, timeout, EngineStderr::Discard)
    }

    /// [`EngineProc::start`], choosing where the engine's stderr goes.
    pub fn start_with(
        spec: &EngineSpec,
        timeout: Duration,
        stderr: EngineStderr,
    ) -> Result<EngineProc, EngineFailure> {
        let stderr = match stderr {
            EngineStderr::Discard => Stdio::null(),
            EngineStderr::Inherit => Stdio::inherit(),
        };
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| EngineFailure::Spawn("empty command".into()))?;
        let mut child = Process::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|e| EngineFailure::Spawn(format!("{program}: {e}")))?;
        let stdout = child.stdout.take();
        let stdin = child.stdin.take();
        let lines = match stdout {
            Some(out) => spawn_reader(out),
            None => return Err(EngineFailure::Spawn("no stdout pipe".into())),
        };
        let mut engine = EngineProc {
            child,
            stdin,
            lines,
            name: None,
            params: Vec::new(),
        };
        engine.handshake(spec, timeout)?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, timeout: Duration) -> Result<(), EngineFailure> {
        self.send(&Command::Hub)?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.next_response(deadline)? {
                Response::Wait => break,
                Response::Id(id) => self.name = id.name,
                Response::Param(param) => self.declare(param),
                _ => continue,
            }
        }
        let given = |name: &String| spec.options.iter().any(|(n, _)| n == name);
        let declared = |name: &String| self.params.iter().any(|p| &p.name == name);
        let offered: Vec<(String, String)> = spec
            .if_declared
            .iter()
            .filter(|(name, _)| declared(name) && !given(name))
            .cloned()
            .collect();
        let variant = self.variant_param(spec)?;
        for (name, value) in variant.iter().chain(&spec.options).chain(&offered) {
            self.send(&Command::SetParam {
                name: name.clone(),
                value: value.clone(),
            })?;
        }
        self.send(&Command::Init)?;
        self.wait_for(Instant::now() + timeout, |r| matches!(r, Response::Ready))?;
        Ok(())
    }

    /// The `variant` pair to send first, if the game is not Italian; an error when the
    /// engine does not declare that variant among its `variant` values.
    fn variant_param(&self, spec: &EngineSpec) -> Result<Option<(String, String)>, EngineFailure> {
        if spec.variant == Variant::Italian {
            return Ok(None);
        }
        let name = spec.variant.name();
        let declared = self.params.iter().find(|p| p.name == "variant");
        let plays = declared.is_some_and(|p| match &p.kind {
            Some(crate::protocol::response::ParamType::Enum { values }) => {
                values.iter().any(|v| v == name)
            }
            _ => p.value == name,
        });
        if !plays {
            return Err(EngineFailure::Protocol(format!(
                "the engine does not declare variant {name} (its variant parameter: {})",
                declared.map_or_else(|| "none".to_string(), |p| p.to_string())
            )));
        }
        Ok(Some(("variant".to_string(), name.to_string())))
    }

    /// Keeps a declaration; a name declared twice keeps its last declaration.
    fn declare(&mut self, param: Param) {
        self.params.retain(|p| p.name != param.name);
        self.params.push(param);
    }

    /// Sends one command line.
    pub fn send(&mut self, cmd: &Command) -> Result<(), EngineFailure> {
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| EngineFailure::Crash("input closed".into()))?;
        writeln!(stdin, "{cmd}")
            .and_then(|()| stdin.flush())
            .map_err(|e| self.crash_reason(&e.to_string()))
    }

    /// The next parsed answer before `deadline`; unknown lines are skipped.
    fn next_response(&mut self, deadline: Instant) -> Result<Response, EngineFailure> {
        loop {
            let line = match self.lines.recv_deadline(deadline) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(EngineFailure::Timeout),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crash_reason("end of output"));
                }
            };
            match parse_response(&line) {
                Ok(Some(Response::Error { message })) => {
                    return Err(EngineFailure::Protocol(format!("engine error: {message}")));
                }
                Ok(Some(r)) => return Ok(r),
                Ok(None) => continue,
                Err(e) => return Err(EngineFailure::Protocol(format!("{e}: {}", clip(&line)))),
            }
        }
    }

    /// Reads answers until one satisfies `want`.
    fn wait_for(
        &mut self,
        deadline: Instant,
        want: impl Fn(&Response) -> bool,
    ) -> Result<Response, EngineFailure> {
        loop {
            let r = self.next_response(deadline)?;
            if want(&r) {
                return Ok(r);
            }
        }
    }

    /// Describes a crash, with the exit status when the process has already ended.
    fn crash_reason(&mut self, what: &str) -> EngineFailure {
        std::thread::sleep(Duration::from_millis(20));
        match self.child.try_wait() {
            Ok(Some(status)) => EngineFailure::Crash(format!("{what}, {status}")),
            _ => EngineFailure::Crash(what.to_string()),
        }
    }

    /// The engine's output lines, as they arrive; disconnected once the engine has
    /// closed its output. For clients that handle answers themselves (the web board).
    pub fn lines(&self) -> &Receiver<String> {
        &self.lines
    }

    /// The name the engine gave in its `id` line, if any.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The parameters the engine declared in its `hub` answer, in the order declared
    /// (the default value as declared, not the value set since).
    pub fn params(&self) -> &[Param] {
        &self.params
    }

    /// The operating system's id of the engine process.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The exit status, if the process has ended.
    pub fn exit_status(&mut self) -> Option<std::process::ExitStatus> {
        self.child.try_wait().ok().flatten()
    }

    /// Sends `new-game`.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send(&Command::NewGame)
    }

    /// Sets the position (`start` plus `moves`, Hub form), the level and `go think`, then
    /// waits up to `limit` for `done`, keeping the last `info` score and depth.
    pub fn think(
        &mut self,
        start: &Position,
        moves: &[String],
        level: Limits,
        limit: Duration,
    ) -> Result<Thought, EngineFailure> {
        self.send(&Command::Pos {
            position: PositionSpec::Hub(start.to_hub()),
            moves: moves.to_vec(),
        })?;
        self.send(&Command::Level(level))?;
        self.send(&Command::Go(GoMode::Think))?;
        let started = Instant::now();
        let deadline = started + limit;
        let (mut score, mut depth) = (None, None);
        loop {
            match self.next_response(deadline)? {
                Response::Info(info) => {
                    score = info.score.or(score);
                    depth = info.depth.or(depth);
                }
                Response::Done(done) => {
                    return Ok(Thought {
                        mv: done.mv,
                        score,
                        depth,
                        elapsed: started.elapsed(),
                    });
                }
                _ => continue,
            }
        }
    }

    /// Sends `quit`, closes stdin and gives the process a moment to exit before the
    /// drop kills it.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit);
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(300);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for EngineProc {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// At most 60 characters of an engine line, for messages.
fn clip(line: &str) -> String {
    let mut out: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// Splits a command line on whitespace; single or double quotes group words
/// (no escapes, so Windows paths keep their backslashes). On Windows a single quote
/// groups only at the start of a word, so `C:\Users\O'Brien\engine.exe` stays one word.
/// `Err` for an unterminated quote or an empty command.
pub fn split_command(text: &str) -> Result<Vec<String>, String> {
    split_words(text, !cfg!(windows))
}

/// [`split_command`]; `quote_mid_word`: whether a single quote inside a word opens a
/// quote (Unix shells) or is a letter (Windows file names).
fn split_words(text: &str, quote_mid_word: bool) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || (c == '\'' && (quote_mid_word || !in_word)) => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unterminated quote in command {text:?}"));
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_plain_and_quoted() {
        assert_eq!(
            split_command("python3  'my engine.py' \"a b\"c x"),
            Ok(vec![
                "python3".to_string(),
                "my engine.py".into(),
                "a bc".into(),
                "x".into()
            ])
        );
        assert_eq!(split_command("''"), Ok(vec![String::new()]));
        assert!(split_command("a 'b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn windows_rule_keeps_apostrophes_inside_words() {
        let path = r"C:\Users\O'Brien\damiera.exe";
        assert_eq!(
            split_words(&format!("{path} hub"), false),
            Ok(vec![path.to_string(), "hub".into()])
        );
        assert_eq!(
            split_words(r#"'C:\Program Files\x.exe' "a b" c"#, false),
            Ok(vec![
                r"C:\Program Files\x.exe".to_string(),
                "a b".into(),
                "c".into()
            ])
        );
        assert!(split_words(&format!("{path} hub"), true).is_err());
    }

    #[test]
    fn clip_long_lines() {
        assert_eq!(clip("abc"), "abc");
        assert_eq!(clip(&"x".repeat(70)).len(), 63);
    }

    #[test]
    fn missing_program_is_a_spawn_failure() {
        let spec = EngineSpec {
            if_declared: Vec::new(),
            variant: Variant::Italian,
            nodes: None,
            name: "none".into(),
            command: vec!["/nonexistent/damiera-engine".into()],
            options: vec![],
        };
        let r = EngineProc::start(&spec, Duration::from_secs(1));
        assert!(matches!(r, Err(EngineFailure::Spawn(_))));
    }
}
