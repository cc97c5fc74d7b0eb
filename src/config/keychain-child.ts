// The program of a keychain process (keychain-process.ts starts it with `node -e`): reads one request
// line on stdin, says REACHED once the keychain's service has answered, then answers one JSON line
// on stdout, and exits. Its stdin stays open while the caller waits: its end means the caller is
// gone, so it ends too (killed by itself: a call still pending would hold an orderly exit). On Linux
// the Secret Service only: the binding would otherwise fall back to the kernel's keyring, which
// forgets every key at reboot.
//
// Before the binding's call, which a locked keyring holds until someone unlocks it, the D-Bus session
// bus and the Secret Service on it are asked the cheapest question there is (Peer.Ping, after the
// bus's handshake and Hello): a bus that takes the connection and never answers (hung, or stopped)
// is then told from a locked keyring. The binding cannot say which it waits on, and gives no way to
// bound its wait. A connection that fails says nothing: the binding fails at once, in its own words.

/** The line said once the keychain's service has answered (or there is no bus to ask first). */
export const REACHED = '{"reached":true}';

export const KEYCHAIN_CHILD = String.raw`'use strict';
const net = require('node:net');
const path = require('node:path');
let line = '';
let asked = false;
let answered = false;
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  line += chunk;
  if (asked || !line.includes('\n')) return;
  asked = true;
  ask(JSON.parse(line.slice(0, line.indexOf('\n'))));
});
process.stdin.on('end', () => answered || process.kill(process.pid, 'SIGKILL'));
function answer(value) {
  answered = true;
  process.stdout.write(JSON.stringify(value) + '\n', () => process.exit(0));
}
async function ask({ binding, op, service, account, key }) {
  try {
    if (await reachable()) process.stdout.write(${JSON.stringify(REACHED)} + '\n');
    const { AsyncEntry } = require(binding);
    const entry = new AsyncEntry(service, account, { linux: { store: 'secret-service' } });
    const value = op === 'get' ? await entry.getPassword()
      : op === 'set' ? await entry.setPassword(key)
      : await entry.deleteCredential();
    answer({ value: value === undefined ? null : value });
  } catch (err) {
    answer({ error: String((err && err.message) || err) });
  }
}
// true once the bus (and the Secret Service on it) answered, or when there is no bus to ask; false
// when the connection fails; never settles while the bus says nothing
function reachable() {
  const address = process.env.DBUS_SESSION_BUS_ADDRESS;
  const to = process.platform === 'linux' && address ? socketOf(address.split(';')[0]) : undefined;
  if (to === undefined) return Promise.resolve(true);
  return new Promise((resolve) => {
    const socket = net.connect(to);
    let data = Buffer.alloc(0);
    let replies = -1;
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.on('error', () => done(false)).on('close', () => done(false));
    socket.on('connect', () => {
      socket.write('\0AUTH EXTERNAL ' + Buffer.from(String(process.getuid())).toString('hex') + '\r\n');
    });
    socket.on('data', (chunk) => {
      data = Buffer.concat([data, chunk]);
      if (replies < 0) {
        const end = data.indexOf('\r\n');
        if (end < 0) return;
        // any answer is the bus's; one other than OK (another way to authenticate) is the binding's to take
        if (!data.subarray(0, end).toString().startsWith('OK ')) return done(true);
        data = data.subarray(end + 2);
        replies = 0;
        const ping = ['org.freedesktop.secrets', '/org/freedesktop/secrets', 'org.freedesktop.DBus.Peer', 'Ping'];
        const hello = ['org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus', 'Hello'];
        socket.write(Buffer.concat([Buffer.from('BEGIN\r\n'), methodCall(1, ...hello), methodCall(2, ...ping)]));
      }
      // a method return or an error answers each call, in order (the NameAcquired signal comes between)
      for (let size; data.length >= 16 && data.length >= (size = messageSize(data)); data = data.subarray(size)) {
        if ((data[1] === 2 || data[1] === 3) && ++replies === 2) return done(true);
      }
    });
  });
}
// where a D-Bus address (one of its ';'-separated entries) connects: unix:path, unix:abstract,
// unix:runtime, tcp; undefined for any other kind (nothing asked first)
function socketOf(entry) {
  const colon = entry.indexOf(':');
  const keys = {};
  for (const pair of entry.slice(colon + 1).split(',')) {
    const eq = pair.indexOf('=');
    try {
      keys[pair.slice(0, eq)] = decodeURIComponent(pair.slice(eq + 1));
    } catch {
      return undefined;
    }
  }
  const transport = entry.slice(0, colon);
  if (transport === 'unix' && keys.path) return { path: keys.path };
  if (transport === 'unix' && keys.abstract) return { path: '\0' + keys.abstract };
  const runtime = process.env.XDG_RUNTIME_DIR;
  if (transport === 'unix' && keys.runtime === 'yes' && runtime) return { path: path.join(runtime, 'bus') };
  if (transport === 'tcp' && keys.port) return { host: keys.host || 'localhost', port: Number(keys.port) };
  return undefined;
}
// a D-Bus message (little-endian, protocol 1) calling a method with no arguments
function methodCall(serial, destination, objectPath, iface, member) {
  const bytes = [0x6c, 1, 0, 1];
  const pad = (n) => {
    while (bytes.length % n) bytes.push(0);
  };
  const u32 = (v) => {
    pad(4);
    bytes.push(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24);
  };
  u32(0); // the body's length
  u32(serial);
  u32(0); // the header fields' length, set below
  const fields = [[1, 'o', objectPath], [6, 's', destination], [2, 's', iface], [3, 's', member]];
  for (const [code, type, text] of fields) {
    pad(8);
    bytes.push(code, 1, type.charCodeAt(0), 0);
    u32(text.length);
    bytes.push(...Buffer.from(text), 0);
  }
  const length = bytes.length - 16;
  bytes.splice(12, 4, length & 255, length >>> 8, 0, 0);
  pad(8);
  return Buffer.from(bytes);
}
// the whole length of the message at the start of data (its fixed header read)
function messageSize(data) {
  const u32 = (at) => (data[0] === 0x6c ? data.readUInt32LE(at) : data.readUInt32BE(at));
  return 16 + Math.ceil(u32(12) / 8) * 8 + u32(4);
}
`;
