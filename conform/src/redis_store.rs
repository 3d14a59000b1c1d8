//! The Redis replayer: every step of a [`Plan`] sent to a real redis-server whose wall clock is
//! set, before each step, to the store's clock reading at that step (so expiry is judged by
//! Redis itself, exactly: `now > when` expires a key, `src/db.c` `keyIsExpired`).
//!
//! The store: the lock is the key `lock:NAME` holding `identity\ntoken`, taken with
//! `SET key value NX PX ttl` (the lease protocol's re-grant: the holder asking again moves the
//! TTL with `PEXPIRE`), the token from `INCR counter:NAME` (set to `first_token − 1` at the start,
//! and back on an issuer rollback); a renewal is a `PEXPIRE` for the owner of the current value
//! only; a release is compare-and-delete (or a plain `DEL`). The resource: one Lua script that
//! validates the token as a decimal string (Lua numbers are doubles, so tokens are never turned
//! into numbers), compares it with the stored mark and writes, atomically (Redis runs a script
//! without interleaving: "Atomicity of scripts", redis.io/docs/interact/programmability/eval-intro).

use leaselab::engine::{EqualTokenPolicy, TokenCheck, TokenScope, WireToken, WriteOutcome};
use redis::Script;

use crate::plan::{Answer, Outcome, Plan, Request, Step};
use crate::servers::Redis;

/// `KEYS`: lock, counter, mark. `ARGV`: identity, ttl ms, reentrant (1/0), epoch barrier (1/0).
/// Returns `{"granted", token}`, `{"reacquired", token}` or `{"refused", holder}`.
const ACQUIRE: &str = r"
local cur = redis.call('GET', KEYS[1])
if cur then
  local holder, token = string.match(cur, '^(.*)\n(%d+)$')
  if ARGV[3] == '1' and holder == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return {'reacquired', token}
  end
end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  local holder = string.match(redis.call('GET', KEYS[1]), '^(.*)\n%d+$')
  return {'refused', holder}
end
redis.call('INCR', KEYS[2])
local token = redis.call('GET', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. '\n' .. token, 'KEEPTTL')
if ARGV[4] == '1' then
  local mark = redis.call('GET', KEYS[3]) or '0'
  if #token > #mark or (#token == #mark and token > mark) then
    redis.call('SET', KEYS[3], token)
  end
end
return {'granted', token}
";

/// `KEYS`: lock. `ARGV`: identity, token, ttl ms. Returns 1 when renewed, 0 when refused.
const RENEW: &str = r"
if redis.call('GET', KEYS[1]) == ARGV[1] .. '\n' .. ARGV[2] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 0
";

/// `KEYS`: lock. `ARGV`: identity, token, owner check (1/0). Returns `{"released"}`,
/// `{"not_owner", holder}`, `{"deleted_others", holder, token}` or `{"already_free"}`.
const RELEASE: &str = r"
local cur = redis.call('GET', KEYS[1])
if not cur then return {'already_free'} end
local holder, token = string.match(cur, '^(.*)\n(%d+)$')
if cur == ARGV[1] .. '\n' .. ARGV[2] then
  redis.call('DEL', KEYS[1])
  return {'released'}
end
if ARGV[3] == '1' then return {'not_owner', holder} end
redis.call('DEL', KEYS[1])
return {'deleted_others', holder, token}
";

/// The fenced resource. `KEYS`: mark, value, applied op ids, fencing flag. `ARGV`: token present
/// (1/0), token text, value, op id, foreign lock (1/0), equal-token policy, token check, token
/// scope. Returns `{outcome, mark}`. A valid token is a decimal integer from 1 to 2^64 − 1
/// without leading zeros; tokens are compared as strings (length, then digits).
const WRITE: &str = r"
local function valid(t)
  if not string.match(t, '^[1-9]%d*$') then return false end
  if #t > 20 or (#t == 20 and t > '18446744073709551615') then return false end
  return true
end
local function cmp(a, b)
  if #a ~= #b then return (#a < #b) and -1 or 1 end
  if a == b then return 0 end
  return (a < b) and -1 or 1
end
local mark = redis.call('GET', KEYS[1]) or '0'
local fencing = redis.call('GET', KEYS[4]) ~= '0'
local raw, op = ARGV[2], ARGV[4]
local foreign, equal, check, scope = ARGV[5] == '1', ARGV[6], ARGV[7], ARGV[8]
local ok = ARGV[1] == '1' and valid(raw)
local outcome
if not fencing then
  outcome = 'accepted'
elseif foreign and scope == 'per_lock' then
  outcome = 'rejected_foreign_lock'
elseif not ok then
  outcome = 'rejected_invalid'
else
  local c = cmp(raw, mark)
  if c < 0 or (c == 0 and equal == 'reject') then
    outcome = 'rejected_stale'
  elseif check == 'equality' and mark ~= '0' and c ~= 0 then
    outcome = 'rejected_stale'
  elseif equal == 'dedupe' and redis.call('SISMEMBER', KEYS[3], op) == 1 then
    outcome = 'duplicate'
  else
    outcome = 'accepted'
  end
end
if outcome == 'accepted' then
  if ok and cmp(raw, mark) > 0 then
    redis.call('SET', KEYS[1], raw)
    mark = raw
  end
  redis.call('SET', KEYS[2], ARGV[3])
  if equal == 'dedupe' then redis.call('SADD', KEYS[3], op) end
end
return {outcome, mark}
";

/// `KEYS`: mark, applied op ids. `ARGV`: the backup's mark. A restore to a lower mark forgets the
/// op ids applied since.
const RESTORE: &str = r"
local function lower(a, b)
  if #a ~= #b then return #a < #b end
  return a < b
end
local mark = redis.call('GET', KEYS[1]) or '0'
if ARGV[1] == '0' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[1]) end
if lower(ARGV[1], mark) then redis.call('DEL', KEYS[2]) end
return 1
";

const MARK: &str = "res:mark";
const VALUE: &str = "res:value";
const OPS: &str = "res:ops";
const FENCING: &str = "res:fencing";

fn policy(p: EqualTokenPolicy) -> &'static str {
    match p {
        EqualTokenPolicy::Accept => "accept",
        EqualTokenPolicy::Reject => "reject",
        EqualTokenPolicy::Dedupe => "dedupe",
    }
}

fn outcome_of(code: &str) -> Option<WriteOutcome> {
    [
        WriteOutcome::Accepted,
        WriteOutcome::RejectedStale,
        WriteOutcome::RejectedInvalid,
        WriteOutcome::Duplicate,
        WriteOutcome::RejectedForeignLock,
    ]
    .into_iter()
    .find(|o| o.code() == code)
}

/// The text a write's token travels as, and whether there is one.
fn token_text(token: &WireToken) -> (bool, String) {
    match token {
        WireToken::Number(n) => (true, n.to_string()),
        WireToken::Missing => (false, String::new()),
        WireToken::Malformed(raw) => (true, raw.clone()),
    }
}

/// Replays `plan` on `server` (flushed first) and compares every answer.
///
/// # Errors
/// A failure to talk to the server (not a mismatch: those are in the outcome).
pub fn replay(server: &Redis, plan: &Plan) -> Result<Outcome, String> {
    let mut con = server.connect()?;
    let m = &plan.model;
    let lock = format!("lock:{}", m.lock);
    let counter = format!("counter:{}", m.lock);
    let err = |e: redis::RedisError| format!("redis ({}): {e}", plan.scenario);
    server.clock.set_ms(0).map_err(|e| e.to_string())?;
    redis::cmd("FLUSHALL").exec(&mut con).map_err(err)?;
    redis::cmd("SET").arg(&counter).arg(m.first_token - 1).exec(&mut con).map_err(err)?;
    redis::cmd("SET").arg(FENCING).arg(if m.fencing { "1" } else { "0" }).exec(&mut con).map_err(err)?;
    let (acquire, renew, release, write, restore) =
        (Script::new(ACQUIRE), Script::new(RENEW), Script::new(RELEASE), Script::new(WRITE), Script::new(RESTORE));
    let mut outcome = Outcome::default();
    for step in &plan.steps {
        server.clock.set_ms(step.store_ms).map_err(|e| e.to_string())?;
        let got = match &step.request {
            Request::Acquire { identity, .. } => {
                let reply: Vec<String> = acquire
                    .key(&lock)
                    .key(&counter)
                    .key(MARK)
                    .arg(identity)
                    .arg(m.ttl_ms)
                    .arg(u8::from(m.reentrant))
                    .arg(u8::from(m.epoch_barrier))
                    .invoke(&mut con)
                    .map_err(err)?;
                let token = || reply.get(1).and_then(|t| t.parse().ok());
                match (reply.first().map(String::as_str), token()) {
                    (Some("granted"), Some(token)) => Answer::Granted { token },
                    (Some("reacquired"), Some(token)) => Answer::Reacquired { token },
                    (Some("refused"), _) => Answer::Refused { holder: reply.get(1).cloned().unwrap_or_default() },
                    _ => Answer::Unreadable(format!("{reply:?}")),
                }
            }
            Request::Renew { identity, token, .. } => {
                let ok: i64 = renew.key(&lock).arg(identity).arg(*token).arg(m.ttl_ms).invoke(&mut con).map_err(err)?;
                if ok == 1 {
                    Answer::Renewed
                } else {
                    Answer::RenewRefused
                }
            }
            Request::Release { identity, token, owner_check, .. } => {
                let reply: Vec<String> = release
                    .key(&lock)
                    .arg(identity)
                    .arg(*token)
                    .arg(u8::from(*owner_check))
                    .invoke(&mut con)
                    .map_err(err)?;
                match (reply.first().map(String::as_str), reply.get(1), reply.get(2).and_then(|t| t.parse().ok())) {
                    (Some("released"), _, _) => Answer::Released,
                    (Some("already_free"), _, _) => Answer::AlreadyFree,
                    (Some("not_owner"), holder, _) => Answer::NotOwner { holder: holder.cloned() },
                    (Some("deleted_others"), Some(holder), Some(token)) => {
                        Answer::DeletedOthers { holder: holder.clone(), token }
                    }
                    _ => Answer::Unreadable(format!("{reply:?}")),
                }
            }
            Request::CheckExpired { .. } => {
                let n: i64 = redis::cmd("EXISTS").arg(&lock).query(&mut con).map_err(err)?;
                if n == 0 {
                    Answer::Expired
                } else {
                    Answer::Live
                }
            }
            Request::Revoke => {
                redis::cmd("DEL").arg(&lock).exec(&mut con).map_err(err)?;
                Answer::Done
            }
            Request::CheckMark => mark(&mut con).map_err(err)?,
            Request::Write { op_id, token, value, lock: foreign } => {
                let (present, text) = token_text(token);
                let scope = if m.token_scope == TokenScope::Global { "global" } else { "per_lock" };
                let check = if m.token_check == TokenCheck::Equality { "equality" } else { "ordered" };
                let reply: Vec<String> = write
                    .key(MARK)
                    .key(VALUE)
                    .key(OPS)
                    .key(FENCING)
                    .arg(u8::from(present))
                    .arg(text)
                    .arg(value)
                    .arg(op_id)
                    .arg(u8::from(foreign.is_some()))
                    .arg(policy(m.equal_token))
                    .arg(check)
                    .arg(scope)
                    .invoke(&mut con)
                    .map_err(err)?;
                match (reply.first().and_then(|o| outcome_of(o)), reply.get(1).and_then(|t| t.parse().ok())) {
                    (Some(outcome), Some(mark)) => Answer::Judged { outcome, mark },
                    _ => Answer::Unreadable(format!("{reply:?}")),
                }
            }
            Request::SetFencing { on } => {
                redis::cmd("SET").arg(FENCING).arg(if *on { "1" } else { "0" }).exec(&mut con).map_err(err)?;
                Answer::Done
            }
            Request::RollbackIssuer { next_token } => {
                redis::cmd("SET").arg(&counter).arg(next_token - 1).exec(&mut con).map_err(err)?;
                Answer::Done
            }
            Request::RestoreResource { high_water } => {
                let _: i64 = restore.key(MARK).key(OPS).arg(*high_water).invoke(&mut con).map_err(err)?;
                mark(&mut con).map_err(err)?
            }
            Request::RestartResource => {
                // Redis keeps the mark in memory; a resource whose mark is not durable loses it.
                if !m.persist_high_water {
                    redis::cmd("DEL").arg(MARK).arg(OPS).exec(&mut con).map_err(err)?;
                }
                mark(&mut con).map_err(err)?
            }
        };
        outcome.compare(plan, "redis", step, &got);
    }
    server.clock.set_ms(plan.steps.last().map_or(0, |s: &Step| s.store_ms)).map_err(|e| e.to_string())?;
    let final_mark = match mark(&mut con).map_err(err)? {
        Answer::Mark { mark } => mark,
        _ => u64::MAX,
    };
    let value: Option<String> = redis::cmd("GET").arg(VALUE).query(&mut con).map_err(err)?;
    outcome.compare_final(plan, "redis", final_mark, value);
    Ok(outcome)
}

/// The resource's mark now.
fn mark(con: &mut redis::Connection) -> redis::RedisResult<Answer> {
    let mark: Option<String> = redis::cmd("GET").arg(MARK).query(con)?;
    Ok(match mark {
        None => Answer::Mark { mark: 0 },
        Some(text) => text.parse().map_or(Answer::Unreadable(text), |mark| Answer::Mark { mark }),
    })
}

/// Checks that the server's wall clock is the fake one and that Redis expires a key strictly
/// after its expiry millisecond: a key set with `PX 1000` is still there 1000 ms later and gone
/// 1001 ms later (`keyIsExpired`: `now > when`).
///
/// # Errors
/// What the server did instead.
pub fn check_clock(server: &Redis) -> Result<(), String> {
    let mut con = server.connect()?;
    let err = |e: redis::RedisError| format!("redis clock check: {e}");
    let start = 5_000_000;
    server.clock.set_ms(start).map_err(|e| e.to_string())?;
    redis::cmd("SET").arg("clock:probe").arg("1").arg("PX").arg(1000).exec(&mut con).map_err(err)?;
    let mut seen = Vec::new();
    for after in [999, 1000, 1001] {
        server.clock.set_ms(start + after).map_err(|e| e.to_string())?;
        let n: i64 = redis::cmd("EXISTS").arg("clock:probe").query(&mut con).map_err(err)?;
        seen.push((after, n));
    }
    let (secs, _): (String, String) = redis::cmd("TIME").query(&mut con).map_err(err)?;
    let want_secs = (crate::servers::FAKE_EPOCH_MS + start + 1001) / 1000;
    if seen != [(999, 1), (1000, 1), (1001, 0)] || secs != want_secs.to_string() {
        return Err(format!(
            "redis-server does not run on the fake clock: key with PX 1000 exists at +999/+1000/+1001 ms: \
             {seen:?}; TIME {secs} s, expected {want_secs}"
        ));
    }
    redis::cmd("FLUSHALL").exec(&mut con).map_err(err)?;
    Ok(())
}
