// The npm `hbase` package (node-hbase, a client of HBase's REST gateway) against a gateway:
// table create/exists/schema/delete, puts (one cell, several, several rows), gets with columns,
// versions and time ranges, exists, scans (the client's stateful scanner with a range, columns
// and a JSON filter; a row-prefix glob, which is a stateless scan), deletes; and through the
// client's own connection what its API has no call for: multiget and check=put / check=delete.
//
//   node rest_tour.js --host H --port P
//
// Prints one line per call with the answer normalised (server-set timestamps left out), so the
// output of a run against HBase's gateway is the expected output of a run against the emulator.
// Exits 0 when every call ran, whatever it answered.
'use strict';

const hbase = require('hbase');
const crypto = require('crypto');

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 && at + 1 < process.argv.length ? process.argv[at + 1] : fallback;
}

const client = hbase({host: option('--host', '127.0.0.1'), port: option('--port', '8080')});
const name = 'ntour_' + crypto.randomBytes(5).toString('hex');
const table = client.table(name);

function call(fn) {
  return new Promise((resolve, reject) => fn((error, value) => (error ? reject(error) : resolve(value))));
}

// A connection call whose answer is the HTTP status (check=put answers 304 with an empty body,
// which the client reports as an error carrying the status).
function status(fn) {
  return new Promise((resolve) => fn((error, _data, response) => {
    if (response && response.statusCode) resolve(response.statusCode);
    else resolve(error && error.code ? error.code : 'error ' + (error && error.message));
  }));
}

function cells(list) {
  return '[' + (list || []).map((c) => (c.key !== undefined ? c.key + '/' : '') + c.column + '='
    + c.$ + (c.timestamp < 1e6 ? '@' + c.timestamp : '')).join(', ') + ']';
}

async function step(label, body) {
  let answer;
  try {
    answer = await body();
  } catch (error) {
    answer = 'failed ' + (error.code || '') + ' ' + String(error.body || error.message).split('\n')[0];
  }
  console.log(label + ' -> ' + answer);
}

function b64(text) {
  return Buffer.from(text).toString('base64');
}

function cellSet(row, pairs) {
  return {Row: [{key: b64(row), Cell: pairs.map(([column, value]) => ({column: b64(column), $: b64(value)}))}]};
}

async function scanAll(options) {
  const rows = await call((cb) => table.scan(options, cb));
  return cells(rows);
}

async function tour() {
  await step('exists before create', () => call((cb) => table.exists(cb)));
  await step('create', () => call((cb) => table.create({ColumnSchema: [{name: 'f', VERSIONS: 3}, {name: 'g'}]}, cb)));
  await step('exists after create', () => call((cb) => table.exists(cb)));
  await step('schema families', async () => {
    const schema = await call((cb) => table.schema(cb));
    return schema.ColumnSchema.map((c) => c.name + '/' + c.VERSIONS).join(',');
  });
  await step('tables has it', async () => {
    const tables = await call((cb) => client.tables(cb));
    return tables.some((t) => t.name === name);
  });
  await step('put r1 f:a', () => call((cb) => table.row('r1').put('f:a', 'v1', cb)));
  await step('put r1 f:b, g:c', () => call((cb) => table.row('r1').put(['f:b', 'g:c'], ['b1', 'c1'], cb)));
  await step('put r2 f:a with timestamps', () => call((cb) => table.row('r2').put(['f:a', 'f:a'], ['old', 'new'], [10, 20], cb)));
  await step('put rows', () => call((cb) => table.row().put([
    {key: 'r3', column: 'f:a', $: 'v3'}, {key: 'r4', column: 'g:c', $: 'c4'},
    {key: 'r4', column: 'f:a', $: 'v4', timestamp: 7}], cb)));
  await step('get r1', async () => cells(await call((cb) => table.row('r1').get(cb))));
  await step('get r1 f:b', async () => cells(await call((cb) => table.row('r1').get('f:b', cb))));
  await step('get r1 family g', async () => cells(await call((cb) => table.row('r1').get('g', cb))));
  await step('get r2 v=3', async () => cells(await call((cb) => table.row('r2').get('f:a', {v: 3}, cb))));
  await step('get r2 start 0 end 15', async () => cells(await call((cb) => table.row('r2').get('f:a', {start: 0, end: 15}, cb))));
  await step('get missing', async () => cells(await call((cb) => table.row('nope').get(cb))));
  await step('get glob r*', async () => cells(await call((cb) => table.row('r*').get(cb))));
  await step('exists r3, r3 f:a, nope', async () => [
    await call((cb) => table.row('r3').exists(cb)),
    await call((cb) => table.row('r3').exists('f:a', cb)),
    await call((cb) => table.row('nope').exists(cb))].join(', '));
  await step('multiget r4, nope, r1', async () => {
    const data = await call((cb) => client.connection.get('/' + name + '/multiget?row=r4&row=nope&row=r1', cb));
    return data.Row.map((r) => Buffer.from(r.key, 'base64').toString() + ':' + r.Cell.length).join(', ');
  });
  await step('scan all', () => scanAll({}));
  await step('scan r2..r4', () => scanAll({startRow: 'r2', endRow: 'r4'}));
  await step('scan column g:c', () => scanAll({column: 'g:c'}));
  await step('scan maxVersions 2 r2..r3', () => scanAll({startRow: 'r2', endRow: 'r3', maxVersions: 2}));
  await step('scan batch 1', () => scanAll({batch: 1, startRow: 'r1', endRow: 'r2'}));
  await step('scan filter ValueFilter(= v3)', () => scanAll({filter: {
    type: 'ValueFilter', op: 'EQUAL', comparator: {type: 'BinaryComparator', value: 'v3'}}}));
  await step('scan filter PrefixFilter(r4)', () => scanAll({filter: {type: 'PrefixFilter', value: 'r4'}}));
  await step('check=put f:a=v3 -> w3', () => status((cb) => client.connection.put(
    '/' + name + '/r3?check=put', cellSet('r3', [['f:a', 'w3'], ['f:a', 'v3']]), cb)));
  await step('check=put f:a=v3 again', () => status((cb) => client.connection.put(
    '/' + name + '/r3?check=put', cellSet('r3', [['f:a', 'x3'], ['f:a', 'v3']]), cb)));
  await step('get r3', async () => cells(await call((cb) => table.row('r3').get(cb))));
  await step('check=delete f:a=nope', () => status((cb) => client.connection.put(
    '/' + name + '/r3?check=delete', cellSet('r3', [['f:a', 'nope']]), cb)));
  await step('check=delete f:a=w3', () => status((cb) => client.connection.put(
    '/' + name + '/r3?check=delete', cellSet('r3', [['f:a', 'w3']]), cb)));
  await step('exists r3', () => call((cb) => table.row('r3').exists(cb)));
  await step('delete r1 f:b', async () => {
    await call((cb) => table.row('r1').delete('f:b', cb));
    return cells(await call((cb) => table.row('r1').get(cb)));
  });
  await step('delete r1 family g', async () => {
    await call((cb) => table.row('r1').delete('g', cb));
    return cells(await call((cb) => table.row('r1').get(cb)));
  });
  await step('delete r4', async () => {
    await call((cb) => table.row('r4').delete(cb));
    return call((cb) => table.row('r4').exists(cb));
  });
  await step('scan after deletes', () => scanAll({}));
}

(async () => {
  try {
    await tour();
  } finally {
    await step('delete table', () => call((cb) => table.delete(cb)));
    await step('exists after delete', () => call((cb) => table.exists(cb)));
  }
  console.log('tour done');
})();
