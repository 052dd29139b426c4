/**
 * A versioned schema URI's bytes never change: every protocol document the workflow-engine profile serves at
 * rimthan://registry/{release}/schemas/{id}/{version} is pinned here by the SHA-256 of the bytes a client reads.
 * Publishing a new contract version adds its rows; changing the bytes of a published row fails, whatever the change.
 * The 1.0.0 rows are the documents as 1.0.0 served them before host assets after setup became references.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { sha256Hex } from '../../../src/core/index.js';
import { CONTRACT_VERSION } from '../../../src/guided/index.js';
import { PROTOCOL_SCHEMA_IDS } from '../../../src/registry/reserved-schema-ids.js';
import { connect, NEW_RELEASE, tempReleaseStore, workflowProfile } from '../support/connect.js';

/** `id@version` → SHA-256 (hex) of the served text. Never edit a row: add the rows of a new version. */
const PINNED: ReadonlyMap<string, string> = new Map([
  ['rimthan.start-workflow.input@1.0.0', '43857fcd49783ebfc831c64e0048b9f57342ce89001090077debbfda906cb2ef'],
  ['rimthan.start-workflow.output@1.0.0', '05579e1922d2fe3c2edc3d1931981cb1e6479bb5bee369b6d31e55a23cf16ed1'],
  ['rimthan.continue-workflow.input@1.0.0', 'c4f8509446f965232bcc09384c6e3c673cd7035dbcd5ff8e4a5c4931b3e24218'],
  ['rimthan.continue-workflow.output@1.0.0', 'f4b7713e57ec0fe2e2a8fd6a751ae10b663e63266343fe44e3642f3072786c33'],
  ['rimthan.prepare-step-validation.input@1.0.0', '4e78addf3725da5bccb738c097629309bdee1b7d2fd51ca1a700229bf251528c'],
  ['rimthan.prepare-step-validation.output@1.0.0', 'ab1cc08a98d8ccf0263815583a54645bd5e8e2fdb16d93ac4e714a4a0d6eb402'],
  ['rimthan.submit-step-validation.input@1.0.0', '2315193c9787eb90da73330f4db0d563cd18e2609927a96259b13ced277f02f8'],
  ['rimthan.submit-step-validation.output@1.0.0', '66488dc582c1c8c3c8f6aae92649687da700c6918d4c4aa86686658a78fc1f4d'],
  ['confirmed-state-projection@1.0.0', 'e32ba70fb15c791d52c488d0bcd2338fe2090a6748c67d7913fab1b51ec5eef4'],
  ['repository-policy@1.0.0', '79995e7c0c2d398b546035241a647c4b507437a5a796084c3fa160f17e34e8fb'],
  ['host-declaration@1.0.0', 'b028d328b3c0fb409df6d1d6a7c03a479a220038ab6b0f3c4f8b3e0a195dd30c'],
  ['blocker@1.0.0', 'e00e290c8aadb91a382230bdb1836aca97ca530ce3d894d584468efef5f78175'],
  ['question@1.0.0', '3ed515ca2c9060bd786b13bf5959bb827022b378a6f619b82cc11953a8fc5d81'],
  ['migration-request@1.0.0', '89972473940bc68b5f89baf893d0ca275b58435125ba377ecdea18cd43078b4c'],
  ['migration-preview@1.0.0', '2c96dc6937a9afff31af39f6036ea8f91bbc9b1ce01c735fb101089270ea8b61'],
  ['checkpoint-envelope@1.0.0', '1a898d98d91d8d0792e6ab03c0b912e2433acce51a33e9d835c9bfb4ee634228'],
  ['validation-bundle@1.0.0', 'd94b51849410184951e2b5c111d9b9852797ab656f855bc5a08c6ef175a6ac1f'],
  ['step-definition@1.0.0', '530362c340485b642c239810556986550d39e2c30e2b3a17837197785b23209b'],
  ['step-payload@1.0.0', '5e4a942e8b4f190f23cb4a4d7882d89effb54335bf93e2a67f49caa76505d301'],
  ['artifact@1.0.0', 'f31628d4ff861c3b350f235475a6e7a5fb97cdf2952b5e5fc73c40b8d7b5e356'],
  ['host-attestation@1.0.0', 'a4ad9b94d2fd6c9d8ff27e0d0f4ea258d8c1e10efde1477479d57d2fe30513f7'],
  ['output-attestation@1.0.0', 'f04918ac14b65e3fac04d276ac6938f988f09f6be147c8fdb34e0847c5d79dcf'],
  ['validator-report@1.0.0', 'c541383a86729beabe836b26027a2d1148c4d1a241f24cbb98d413013ad8e1b5'],
  ['reported-finding@1.0.0', '27c3c79643de76fb7c039de84377385a5d0067c5acd12023ba47585e0561ea3a'],
  ['deterministic-failure@1.0.0', '0c1e4bea5e8a2d8dce2681fbefd4c8a3206b4146c2693825e1f0aeb54edc31ec'],
  ['prepared-validator@1.0.0', 'b59e658896c815d501d6eb75ba8f9750f764d1443911ee958266ad69b8a2cff8'],
  ['rimthan.start-workflow.input@1.1.0', '9249ef7cc43ce1f2555b231c7a8485c6548c171efc6336bb6b0283a5eb1b98c7'],
  ['rimthan.start-workflow.output@1.1.0', 'f8a7e25bd83a5e924a852b7d7f80032a2dddb286e96dc699c7aa34ed7092f3eb'],
  ['rimthan.continue-workflow.input@1.1.0', '09dc8a604fb6cef8bf6b4265a7a8922a431b14b8692924958e6fcef736c91360'],
  ['rimthan.continue-workflow.output@1.1.0', 'a85264d2b4e788c0035428c7d6f765e6d4ee1cff1cc30bd9664259152ac3b7d8'],
  ['rimthan.prepare-step-validation.input@1.1.0', '7993ed81f2c52c3b77b301244f73eda37e572fb2b99dc368f50ee6b28cd24f26'],
  ['rimthan.prepare-step-validation.output@1.1.0', '51adca58dc63bbb6ecaff16dd0d2373169330b92f6aa5fff91b05e7b64591f14'],
  ['rimthan.submit-step-validation.input@1.1.0', 'd4ca086d8dcd1761c20ebb35f2d94e92bb141fbbe523c50e1f0f2c41e91a5692'],
  ['rimthan.submit-step-validation.output@1.1.0', 'bd4deb83a60bccc2273a3efcaf1365d2536c848f4bf8e8270ae4e14589207504'],
  ['confirmed-state-projection@1.1.0', 'dba99c1bac41dea2ea7dd06ab77454204107e3720a128592c3d7ee0b11a2e0f7'],
  ['repository-policy@1.1.0', '4f12e7925897090912ac2e219b9ca35569b4f34604226d38f00901acf2a30303'],
  ['host-declaration@1.1.0', '8bf4e79a0211d74bbfbefd2a4a47baa6a0ee78fcb8dc4a0c3289b83d90290b38'],
  ['blocker@1.1.0', '2b474765795cc8f61599bf992b9727ff6490bffb49df4c29827802dae6b3ebbe'],
  ['question@1.1.0', '3ed515ca2c9060bd786b13bf5959bb827022b378a6f619b82cc11953a8fc5d81'],
  ['migration-request@1.1.0', '8c574b43d00fb2191699d60cb7f346dba9567e4cfb8738e7325f7d7d100f2444'],
  ['migration-preview@1.1.0', '625d1e08b4d599909eb1085c06ed95022501ca35109d03e58246a3d02bfeb64e'],
  ['checkpoint-envelope@1.1.0', '57eca57244e4d317573f74e2f067dc9bdc4843d56352ce35d371ed4d1bc1dceb'],
  ['validation-bundle@1.1.0', 'a64f2548c9480376191ee408d624687d3a26a6df544229338b5a7d03d7db51a4'],
  ['step-definition@1.1.0', '6166dc9e7831c25b0545ae665ee7aa549661103611791048feb814194c1fd874'],
  ['step-payload@1.1.0', '2e9a533fa374932f9ed08b9366a0c50abddc2427760d00ec760d8b97d46d5f76'],
  ['artifact@1.1.0', 'a4062e6dda1129fe1ed30d170c9d6087a51e85e7da68e125dd2216d0de142e34'],
  ['host-attestation@1.1.0', '30c1f9304541e60a6ae316d70cf848fdc0936c9deeffcfce3a330a56e9025a7a'],
  ['output-attestation@1.1.0', '0177d89c75007c21805d74003a00d50901f3a11f191e903b5cf4ab3bb3453ed7'],
  ['validator-report@1.1.0', 'dfb1205ad700ea03dacb7a2751727b7b3ad22efec4cc56dc5b61f7108909a6be'],
  ['reported-finding@1.1.0', '8452ec68be0cb3ebb431e865b028712f3c60d86dd1ab2f18a3577b465e6a2421'],
  ['deterministic-failure@1.1.0', 'ce4dffa50c88aad86f28196d708e3dbefaf6f718872c970fb90e839e5c144dec'],
  ['prepared-validator@1.1.0', '83503520a2e10928083bbc4fd16d84c3569a136a1ae9a111d3678c180332427a'],
]);

const SCHEMA_URI = /^rimthan:\/\/registry\/[^/]+\/schemas\/([^/]+)\/([^/]+)$/;

describe('published versioned schema documents', () => {
  let releases: ReturnType<typeof tempReleaseStore>;
  let conn: Awaited<ReturnType<typeof connect>>;
  let client: Client;

  before(async () => {
    releases = tempReleaseStore(NEW_RELEASE);
    conn = await connect(workflowProfile(releases.store));
    client = conn.client;
  });
  after(async () => {
    await conn.close();
    releases.cleanup();
  });

  test('every protocol schema served is pinned, and every pinned one is served with exactly its bytes', async () => {
    const { resources } = await client.listResources();
    const served = new Map<string, string>();
    for (const r of resources) {
      const match = SCHEMA_URI.exec(r.uri);
      if (match === null || !PROTOCOL_SCHEMA_IDS.has(match[1] ?? '')) continue;
      const read = await client.readResource({ uri: r.uri });
      const content = read.contents[0];
      const text = content !== undefined && 'text' in content ? content.text : undefined;
      assert.equal(typeof text, 'string', r.uri);
      served.set(`${match[1] ?? ''}@${match[2] ?? ''}`, sha256Hex(text as string));
    }
    const changed = [...PINNED].filter(([key, digest]) => served.get(key) !== digest).map(([key]) => key);
    assert.deepEqual(changed, [], 'a published document changed its bytes (or is no longer served)');
    const unpinned = [...served.keys()].filter((key) => !PINNED.has(key));
    assert.deepEqual(unpinned, [], 'a served document has no row: add the rows of the new version');
  });

  test('the current contract version is published and the tools use it', () => {
    assert.ok([...PINNED.keys()].some((key) => key.endsWith(`@${CONTRACT_VERSION}`)));
    assert.equal(CONTRACT_VERSION, '1.1.0');
  });
});
