/**
 * POST /customerapi/authenticate/subscription with the key and secret; the token comes back in
 * the `authorization` response header as `Bearer <token>` (interface 4.1 and 5).
 */
export async function authenticate(baseUrl, key, secret) {
  const res = await fetch(`${baseUrl}/customerapi/authenticate/subscription`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ key, secret }),
  });
  if (res.status !== 200) throw new Error(`authentication answered ${res.status}`);
  const token = /^Bearer\s+(\S+)$/i.exec(res.headers.get('authorization') ?? '')?.[1];
  if (!token) throw new Error('no bearer token in the authorization header');
  return token;
}

/** The variables `racedata-sim certify` starts a client with; a missing one stops it at once. */
export function certifyEnv(names) {
  const values = {};
  for (const name of names) {
    const value = process.env[name];
    if (!value) {
      process.stderr.write(`${name} is not set: start this client with racedata-sim certify\n`);
      process.exit(2);
    }
    values[name] = value;
  }
  return values;
}
