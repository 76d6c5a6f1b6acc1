//! The `damiera` binary: parses the command line and dispatches to a subcommand.

use std::io::{StdoutLock, Write};
use std::process::ExitCode;

use clap::Parser;
use clap::error::ErrorKind;
use damiera::cli::{self, Cli, CliError, Reading, Tool};

fn main() -> ExitCode {
    damiera::memory::give_big_blocks_back();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let line = text.lines().next().unwrap_or("bad arguments");
            eprintln!("{}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let (path, variant) = match &cli.command {
        Some(tool) => (tool.eval_file(), tool.variant()),
        None => (None, damiera::board::Variant::Italian),
    };
    let eval = match cli::load_eval_file(path, variant) {
        Ok(eval) => eval,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        None | Some(Tool::Hub) => exit_code(damiera::hub::session::run_stdio()),
        Some(Tool::Match(args)) => cli::matchcmd::main(&args),
        Some(Tool::Analyse(args)) => {
            reading_exit(tool_exit(|out| cli::analyse::run(&args, &eval, out)))
        }
        Some(Tool::Egdb(args)) => done(tool_exit(|out| cli::egdb::run(&args, out))),
        Some(Tool::Book(args)) => done(tool_exit(|out| cli::book::run(&args, out))),
        Some(Tool::Tune(args)) => reading_exit(tool_exit(|out| cli::tune::run(&args, out))),
        Some(Tool::Gui(args)) => done(tool_exit(|out| cli::gui::run(&args, out))),
        Some(Tool::Selfplay(args)) => done(tool_exit(|out| cli::selfplay::run(&args, &eval, out))),
        Some(Tool::Train(args)) => done(tool_exit(|out| cli::train::run(&args, out))),
        Some(Tool::Perft(args)) => done(tool_exit(|out| cli::perft::run(&args, out))),
        Some(Tool::Moves(args)) => done(tool_exit(|out| cli::moves::run(&args, out))),
        Some(Tool::Bench(args)) => write_exit(|out| cli::bench::run(&args, &eval, out)),
        Some(Tool::Play(args)) => match args.house.position(&args.variant, args.fen.as_deref()) {
            Ok(start) => {
                write_exit(|out| cli::play::run(&args, start, &eval, std::io::stdin().lock(), out))
            }
            Err(e) => {
                eprintln!("{e}");
                ExitCode::from(2)
            }
        },
    }
}

/// Runs a tool whose errors are one line for the user (exit status 2).
fn tool_exit<T>(run: impl FnOnce(&mut StdoutLock) -> Result<T, CliError>) -> Result<T, ExitCode> {
    let stdout = std::io::stdout();
    run(&mut stdout.lock()).map_err(|e| {
        eprintln!("{e}");
        ExitCode::from(2)
    })
}

/// The exit status of a tool: success, or its error's.
fn done(result: Result<(), ExitCode>) -> ExitCode {
    result.map_or_else(|code| code, |()| ExitCode::SUCCESS)
}

/// The exit status of a tool that reads PDN files: 3 when it skipped games.
fn reading_exit(result: Result<Reading, ExitCode>) -> ExitCode {
    match result {
        Ok(Reading::Complete) => ExitCode::SUCCESS,
        Ok(Reading::GamesSkipped) => ExitCode::from(cli::GAMES_SKIPPED),
        Err(code) => code,
    }
}

/// Runs a command that only writes to stdout.
fn write_exit(run: impl FnOnce(&mut StdoutLock) -> std::io::Result<()>) -> ExitCode {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let result = run(&mut out);
    let _ = out.flush();
    exit_code(result)
}

/// Success, also when the reader closed our output early; otherwise a one-line error.
fn exit_code(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
