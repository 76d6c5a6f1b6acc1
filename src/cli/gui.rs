//! `damiera gui`: the local web board.

use std::io::Write;

use clap::Args;

use super::CliError;
use crate::gui::{Config, Server, open_browser};
use crate::protocol::client::{EngineSpec, split_command};

/// Options of `damiera gui`.
#[derive(Args, Debug)]
pub struct GuiArgs {
    /// The game the board and its engine play (the engine is told `set-param
    /// name=variant`).
    #[command(flatten)]
    pub variant: super::VariantArg,
    /// Port to listen on (default: a free port).
    #[arg(long)]
    pub port: Option<u16>,
    /// Address to listen on. On an address other machines can reach (`0.0.0.0`, a LAN
    /// address) every request from another machine must carry the token printed in the
    /// URL; loopback needs none.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// The token other machines must present (default: a random one, printed in the
    /// URL, when --host is not loopback). Letters, digits, `-` and `_`, 8 to 128.
    #[arg(long, value_parser = parse_token)]
    pub token: Option<String>,
    /// Hub engine command line (quotes group words); default: this program's `hub` mode.
    #[arg(long)]
    pub engine: Option<String>,
    /// Do not open a browser; just print the address.
    #[arg(long)]
    pub no_open: bool,
}

/// A token for clap: 8 to 128 characters from `A-Z a-z 0-9 - _` (it travels in a URL
/// and a cookie, unescaped).
fn parse_token(text: &str) -> Result<String, String> {
    let ok = (8..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err("a token is 8 to 128 characters from A-Z, a-z, 0-9, '-' and '_'".into())
    }
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
        variant: args.variant.variant,
        nodes: None,
        name,
        command,
        options: Vec::new(),
    })
}

/// Starts the server, prints its address (first line of stdout) and serves forever.
pub fn run(args: &GuiArgs, out: &mut impl Write) -> Result<(), CliError> {
    let mut config = Config::new(&args.host, args.port.unwrap_or(0), engine_spec(args)?);
    config.token = args.token.clone();
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
