//! The real servers: redis-server (Debian's `redis-server`, 7.0) with its wall clock driven by
//! the test, and etcd (Debian's `etcd-server`, 3.4) in real time. Each listens on loopback on a
//! free port, keeps its data in a temporary directory, and is stopped by its process id (kill,
//! then wait) when its guard is dropped: at the end, on an error and on a panic.

use std::fs::File;
use std::io::Write as _;
use std::net::TcpListener;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Where the fake clock's shared library was built (`build.rs`).
pub const FAKECLOCK_SO: &str = env!("LEASELAB_FAKECLOCK_SO");

/// The fake wall clock's value at virtual time 0 of the store's clock, in ms since the Unix
/// epoch (2023-11-14), so that a store clock set back by a day stays far from 1970.
pub const FAKE_EPOCH_MS: i64 = 1_700_000_000_000;

/// A free TCP port on 127.0.0.1 (the kernel's choice for port 0; released at once for the server).
///
/// # Errors
/// When no socket can be bound.
pub fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A directory removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates `<parent>/leaselab-conform-<what>-<pid>-<n>`.
    ///
    /// # Errors
    /// When it cannot be created.
    pub fn new(parent: &Path, what: &str) -> std::io::Result<Self> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let path = parent.join(format!("leaselab-conform-{what}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path)?;
        Ok(Self(path))
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A child process stopped by its id when dropped (SIGKILL, then reaped).
pub struct Guard {
    child: Child,
    name: &'static str,
}

impl Guard {
    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Fails if the process has already exited (it could not start).
    fn check_running(&mut self) -> Result<(), String> {
        match self.child.try_wait() {
            Ok(Some(status)) => Err(format!("{} exited at start ({status})", self.name)),
            Ok(None) => Ok(()),
            Err(e) => Err(format!("{}: {e}", self.name)),
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The wall clock redis-server reads: a file holding one little-endian `i64`, microseconds since
/// the epoch, mapped shared by `fakeclock.c` in the server's process.
pub struct FakeClock {
    file: File,
    path: PathBuf,
}

impl FakeClock {
    /// Creates the file in `dir`, reading [`FAKE_EPOCH_MS`].
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn new(dir: &Path) -> std::io::Result<Self> {
        let path = dir.join("fakeclock");
        let mut file = File::options().read(true).write(true).create(true).truncate(true).open(&path)?;
        file.write_all(&(FAKE_EPOCH_MS * 1000).to_le_bytes())?;
        Ok(Self { file, path })
    }

    /// Sets the server's wall clock to the store's clock reading `store_ms` (virtual ms).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn set_ms(&self, store_ms: i64) -> std::io::Result<()> {
        let us = (FAKE_EPOCH_MS + store_ms) * 1000;
        self.file.write_all_at(&us.to_le_bytes(), 0)
    }
}

/// A running redis-server whose wall clock is a [`FakeClock`].
pub struct Redis {
    /// Its port on 127.0.0.1.
    pub port: u16,
    /// The wall clock it reads.
    pub clock: FakeClock,
    // Dropped in this order: the server, then its directory.
    guard: Guard,
    _dir: TempDir,
}

impl Redis {
    /// Starts `/usr/bin/redis-server` on a free loopback port, without persistence, with the fake
    /// clock preloaded, and waits (at most 5 s) until it answers `PING`.
    ///
    /// # Errors
    /// When it cannot start or does not answer.
    pub fn start() -> Result<Self, String> {
        let dir = TempDir::new(&std::env::temp_dir(), "redis").map_err(|e| format!("temporary directory: {e}"))?;
        let clock = FakeClock::new(dir.path()).map_err(|e| format!("fake clock file: {e}"))?;
        let port = free_port().map_err(|e| format!("free port: {e}"))?;
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(dir.path())
            .env("LD_PRELOAD", FAKECLOCK_SO)
            .env("LEASELAB_FAKECLOCK_FILE", &clock.path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start redis-server (Debian: apt-get install redis-server): {e}"))?;
        let mut guard = Guard { child, name: "redis-server" };
        let client = redis::Client::open(format!("redis://127.0.0.1:{port}/")).map_err(|e| e.to_string())?;
        let start = Instant::now();
        loop {
            guard.check_running()?;
            if let Ok(mut con) = client.get_connection() {
                if redis::cmd("PING").query::<String>(&mut con).is_ok() {
                    break;
                }
            }
            if start.elapsed() > Duration::from_secs(5) {
                return Err("redis-server did not answer PING within 5 s".into());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Self { port, clock, guard, _dir: dir })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.guard.pid()
    }

    /// A new connection.
    ///
    /// # Errors
    /// When the server cannot be reached.
    pub fn connect(&self) -> Result<redis::Connection, String> {
        redis::Client::open(format!("redis://127.0.0.1:{}/", self.port))
            .and_then(|c| c.get_connection())
            .map_err(|e| format!("redis: {e}"))
    }
}

/// A running single-member etcd cluster, in real time.
pub struct Etcd {
    /// `http://127.0.0.1:PORT`, where the JSON gateway answers under `/v3/`.
    pub url: String,
    // Dropped in this order: the server, then its directory.
    guard: Guard,
    _dir: TempDir,
}

/// etcd's election timeout, in ms: leases can be as short as ceil(1.5 × this) = 150 ms, which the
/// gateway rounds up to etcd's smallest TTL, 1 s.
pub const ETCD_ELECTION_MS: u64 = 100;
/// etcd's heartbeat, in ms.
pub const ETCD_HEARTBEAT_MS: u64 = 10;

impl Etcd {
    /// Starts `/usr/bin/etcd` on free loopback ports with its data on tmpfs (`/dev/shm` when there
    /// is one), a 10 ms heartbeat and a 100 ms election timeout, and waits (at most 10 s) until it
    /// serves a read.
    ///
    /// # Errors
    /// When it cannot start or does not answer.
    pub fn start() -> Result<Self, String> {
        let shm = Path::new("/dev/shm");
        let parent = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
        let dir = TempDir::new(&parent, "etcd").map_err(|e| format!("temporary directory: {e}"))?;
        let client = free_port().map_err(|e| format!("free port: {e}"))?;
        let mut peer = free_port().map_err(|e| format!("free port: {e}"))?;
        while peer == client {
            peer = free_port().map_err(|e| format!("free port: {e}"))?;
        }
        let url = format!("http://127.0.0.1:{client}");
        let peer_url = format!("http://127.0.0.1:{peer}");
        let child = Command::new("etcd")
            .args(["--name", "default", "--data-dir"])
            .arg(dir.path().join("data"))
            .args(["--listen-client-urls", &url, "--advertise-client-urls", &url])
            .args(["--listen-peer-urls", &peer_url, "--initial-advertise-peer-urls", &peer_url])
            .args(["--initial-cluster", &format!("default={peer_url}")])
            .args(["--heartbeat-interval", &ETCD_HEARTBEAT_MS.to_string()])
            .args(["--election-timeout", &ETCD_ELECTION_MS.to_string()])
            .args(["--log-level", "error"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start etcd (Debian: apt-get install etcd-server): {e}"))?;
        let mut guard = Guard { child, name: "etcd" };
        let start = Instant::now();
        let body = r#"{"key":"AA=="}"#;
        loop {
            guard.check_running()?;
            if crate::etcd::post(&url, "/v3/kv/range", body).is_ok() {
                break;
            }
            if start.elapsed() > Duration::from_secs(10) {
                return Err(format!("etcd (pid {}) did not serve a read within 10 s", guard.pid()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(Self { url, guard, _dir: dir })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.guard.pid()
    }
}
