//! PDN reading and writing for Italian draughts (text level).
