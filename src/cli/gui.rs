//! `damiera gui`: the local web board.

use std::io::Write;

use clap::Args;

use super::CliError;
use crate::gui::{Config, Server, open_browser};
use crate::hub::client::{EngineSpec, split_command};

/// Options of `damiera gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// Port to listen on (default: a free port).
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on. Anyone who can reach it controls the engine: keep it on
    /// loopback unless you mean to share the board.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Hub engine command line (quotes group words); default: this program's `hub` mode.
    #[arg(long)]
    pub engine: Option<String>,
    /// Do not open a browser; just print the address.
    #[arg(long)]
    pub no_open: bool,
}

fn engine_spec(args: &GuiArgs) -> Result<EngineSpec, CliError> {
    let command = match &args.engine {
        Some(text) => split_command(text).map_err(|e| CliError(format!("--engine: {e}")))?,
        None => {
            let me = std::env::current_exe().map_err(|e| {
                CliError(format!(
                    "cannot find this program to run it as the engine: {e}"
                ))
            })?;
            vec![me.to_string_lossy().into_owned(), "hub".into()]
        }
    };
    let name = command.first().map_or("engine".into(), |p| {
        std::path::Path::new(p)
            .file_name()
            .map_or(p.clone(), |f| f.to_string_lossy().into_owned())
    });
    Ok(EngineSpec {
        if_declared: Vec::new(),
        name,
        command,
        options: Vec::new(),
    })
}

/// Starts the server, prints its address (first line of stdout) and serves forever.
pub fn run(args: &GuiArgs, out: &mut impl Write) -> Result<(), CliError> {
    let config = Config {
        host: args.host.clone(),
        port: args.port.unwrap_or(0),
        engine: engine_spec(args)?,
    };
    let server = Server::bind(config).map_err(CliError)?;
    let url = server.url().to_string();
    let _ = writeln!(out, "Damiera board: {url}");
    let _ = out.flush();
    if !args.no_open && !open_browser(&url) {
        let _ = writeln!(out, "open {url} in your browser");
        let _ = out.flush();
    }
    server.serve();
    Ok(())
}
