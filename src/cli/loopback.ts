/** Which listen addresses are loopback: the one rule for every "beyond loopback" refusal of the CLI. */

/** True for localhost, 127.x.y.z and ::1 (bracketed or not). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(h);
}
