/**
 * The Host and Origin parsers of src/http's guard and its configuration refusals: an Origin is an http(s) origin and
 * nothing more (fast-check: any path, query, user info or other scheme is not one; default ports compare equal), a
 * Host is `host[:port]`, and a listener configured with a value that is neither refuses to start.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { authorityOf, originOf, RequestGuard } from '../../src/http/index.js';
import { startHttpTransport } from '../../src/mcp/index.js';

describe('the Host/Origin guard parsers', () => {
  test('an Origin is scheme://host[:port] only; the default port is the same origin', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('http', 'https'),
        fc.domain(),
        fc.integer({ min: 1, max: 65535 }),
        (scheme, domain, port) => {
          const origin = `${scheme}://${domain}:${port}`;
          const expected = (scheme === 'http' && port === 80) || (scheme === 'https' && port === 443);
          assert.equal(originOf(origin), expected ? `${scheme}://${domain}` : origin.toLowerCase());
          for (const suffix of ['/x', '?q', '#f', '/x/']) assert.equal(originOf(`${origin}${suffix}`), undefined);
          assert.equal(originOf(`${scheme}://user@${domain}:${port}`), undefined);
          assert.equal(originOf(`ftp://${domain}:${port}`), undefined);
        },
      ),
    );
    for (const value of ['null', '', 'localhost', 'file:///etc/passwd', 'http://localhost:abc', 'http://a:99999'])
      assert.equal(originOf(value), undefined, value);
  });

  test('a Host is host[:port] with a port up to 65535', () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 0, max: 65535 }), (domain, port) => {
        assert.deepEqual(authorityOf(`${domain}:${port}`), { name: domain.toLowerCase(), port });
        assert.deepEqual(authorityOf(domain), { name: domain.toLowerCase(), port: undefined });
        assert.equal(authorityOf(`${domain}:${port + 65536}`), undefined);
        assert.equal(authorityOf(`user@${domain}`), undefined);
      }),
    );
  });

  test('an allowed origin that is not scheme://host[:port] is a configuration error', async () => {
    for (const origin of ['*', 'null', 'mcp.example.org', 'https://mcp.example.org/mcp', 'file:///x']) {
      assert.throws(() => new RequestGuard({ allowedHosts: [], allowedOrigins: [origin] }), { code: 'invalid_config' });
      await assert.rejects(
        startHttpTransport({
          port: 0,
          maxRequestBytes: 1024,
          allowedOrigins: [origin],
          serverFor: () => assert.fail('never served'),
        }),
        { code: 'invalid_config' },
        origin,
      );
    }
  });
});
