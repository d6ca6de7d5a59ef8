#!/usr/bin/env node
'use strict';
/*
 * gen_oracle_data.js -- differential-test data for fived from the oracle engine
 * 5d-chess-js 1.2.1, through the harness ../shared/oracle/oracle.js.
 *
 * Plays seeded random games in many variants and writes, for sampled positions
 * (always at an action boundary), the game as 5DPGN plus the oracle's answers:
 * side to move, "in check", the exact number of legal actions (when the
 * harness search finishes quickly) and every pseudo-legal single move from all
 * playable boards. Record format: scripts/oracle/README.md.
 *
 * Nothing of the oracle is copied here: at run time this script require()s
 * oracle.js (which exports its loader, replay and searches) and 5d-chess-js
 * from <oracle-dir>/node_modules, and computes each answer exactly as the
 * oracle.js commands do (see answer()). --verify compares written records
 * with the real `node oracle.js` command lines.
 *
 * Usage:
 *   node scripts/oracle/gen_oracle_data.js --seed 20240607 [--oracle-dir DIR]
 *        [--out DIR] [--groups a,b,...] [--scale F] [--actions-timeout MS]
 *   node scripts/oracle/gen_oracle_data.js --verify N [--seed S] [--out DIR]
 *        (re-checks N records chosen with seed S by running node oracle.js)
 *   node scripts/oracle/gen_oracle_data.js --list
 */

const fs = require('fs');
const path = require('path');
const childProcess = require('child_process');

// ------------------------------------------------------------------ options
const REPO_ROOT = path.resolve(__dirname, '..', '..');
function parseArgs(argv) {
  const o = { seed: null, oracleDir: path.resolve(REPO_ROOT, '..', 'shared', 'oracle'),
    out: path.join(REPO_ROOT, 'tests', 'data', 'oracle'), groups: null, scale: 1,
    actionsTimeout: 60000, verify: 0, list: false, quiet: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => { if (i + 1 >= argv.length) throw new Error(a + ' needs a value'); return argv[++i]; };
    if (a === '--seed') o.seed = next();
    else if (a === '--oracle-dir') o.oracleDir = path.resolve(next());
    else if (a === '--out') o.out = path.resolve(next());
    else if (a === '--groups') o.groups = next().split(',').filter(Boolean);
    else if (a === '--scale') o.scale = Number(next());
    else if (a === '--actions-timeout') o.actionsTimeout = Number(next());
    else if (a === '--verify') o.verify = Number(next());
    else if (a === '--list') o.list = true;
    else if (a === '--quiet') o.quiet = true;
    else throw new Error('unknown argument ' + a);
  }
  return o;
}
const OPT = parseArgs(process.argv.slice(2));

// ------------------------------------------------------------------ oracle
const ORACLE_JS = path.join(OPT.oracleDir, 'oracle.js');
if (!fs.existsSync(path.join(OPT.oracleDir, 'node_modules', '5d-chess-js'))) {
  process.stderr.write('gen_oracle_data: ' + OPT.oracleDir + '/node_modules is missing; run ' +
    path.join(OPT.oracleDir, 'install.sh') + ' first\n');
  process.exit(2);
}
const Oracle = require(ORACLE_JS);
const LIB_VERSION = require(path.join(OPT.oracleDir, 'node_modules', '5d-chess-js', 'package.json')).version;
const R = new Oracle.Chess().raw;
const boardFuncs = R.boardFuncs, mateFuncs = R.mateFuncs;

// ------------------------------------------------------------------ PRNG
// xoshiro128** seeded through splitmix32 from a string (no Math.random anywhere)
function hashString(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
  return h >>> 0;
}
function makeRng(seedStr) {
  let x = hashString(String(seedStr));
  const sm = () => { x = (x + 0x9e3779b9) >>> 0; let z = x; z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0; return (z ^ (z >>> 16)) >>> 0; };
  const s = [sm(), sm(), sm(), sm()];
  const rotl = (v, k) => ((v << k) | (v >>> (32 - k))) >>> 0;
  const next = () => {
    const r = Math.imul(rotl(Math.imul(s[1], 5) >>> 0, 7), 9) >>> 0;
    const t = (s[1] << 9) >>> 0;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 11);
    return r;
  };
  const rng = () => next() / 4294967296;
  rng.int = (n) => Math.floor(rng() * n);
  return rng;
}

// ------------------------------------------------------------------ variant groups
// fens: 5DFEN board strings for [Board "custom"] games (RULES.md section 6, with
// "*" on pawns/brawns); board: a library variant name otherwise.
// target: records wanted; maxActions: [min,max] game length in actions;
// maxTL: soft cap on timelines (branching jumps get rare beyond it);
// pRec: chance to record the position after an action.
const GROUPS = [
  { id: 'standard', file: 'standard', board: 'Standard', target: 340, maxActions: [14, 40], maxTL: 5, pRec: 0.3 },
  { id: 'turn-zero', file: 'turn_zero', board: 'Standard - Turn Zero', target: 170, maxActions: [12, 34], maxTL: 5, pRec: 0.3 },
  { id: 'two-tl', file: 'two_timelines', board: 'Standard - Two Timelines', target: 220, maxActions: [10, 30], maxTL: 5, pRec: 0.3 },
  { id: 'def-pawn', file: 'defended_pawn', board: 'Standard - Defended Pawn', target: 170, maxActions: [12, 34], maxTL: 5, pRec: 0.3 },
  { id: 'rev-royal', file: 'reversed_royalty', board: 'Standard - Reversed Royalty', target: 170, maxActions: [12, 34], maxTL: 5, pRec: 0.3 },
  { id: 'half-refl', file: 'half_reflected', board: 'Standard - Half Reflected', target: 170, maxActions: [12, 34], maxTL: 5, pRec: 0.3 },
  { id: 'vsmall', file: 'very_small', size: '4x4', fens: ['[nbrk/p*p*p*p*/P*P*P*P*/KRBN:0:1:w]'],
    target: 220, maxActions: [10, 40], maxTL: 7, pRec: 0.35 },
  { id: 'small', file: 'small', size: '5x5', fens: ['[kqbnr/p*p*p*p*p*/5/P*P*P*P*P*/KQBNR:0:1:w]'],
    target: 200, maxActions: [10, 40], maxTL: 6, pRec: 0.35 },
  { id: 'small-up', file: 'small_underpromotion', size: '5x5', promotions: 'Q,R,B,N',
    fens: ['[kqbnr/p*p*p*p*p*/5/P*P*P*P*P*/KQBNR:0:1:w]'], target: 200, maxActions: [12, 44], maxTL: 6, pRec: 0.35, promoBoost: true },
  { id: 'brawns', file: 'just_brawns', size: '5x5', fens: ['[w*w*w*w*k/5/5/5/KW*W*W*W*:0:1:w]'],
    target: 220, maxActions: [10, 40], maxTL: 6, pRec: 0.35, promoBoost: true },
  { id: 'unicorns', file: 'just_unicorns', size: '5x5', fens: ['[1u1uk/5/5/5/KU1U1:0:1:w]'],
    target: 170, maxActions: [10, 36], maxTL: 6, pRec: 0.35 },
  { id: 'dragons', file: 'just_dragons', size: '5x5', fens: ['[2ddk/5/5/5/KDD2:0:1:w]'],
    target: 170, maxActions: [10, 36], maxTL: 6, pRec: 0.35 },
  { id: 'knights', file: 'just_knights', size: '5x5', fens: ['[n1kn1/5/5/5/1NK1N:0:1:w]'],
    target: 170, maxActions: [10, 36], maxTL: 6, pRec: 0.35 },
  { id: 'invasion', file: 'timeline_invasion', size: '5x5',
    fens: ['[nbkrb/p*p*p*p*p*/5/5/P*P*P*P*P*:-0:1:w]', '[p*p*p*p*p*/5/5/P*P*P*P*P*/NBKRB:+0:1:w]'],
    target: 220, maxActions: [8, 30], maxTL: 6, pRec: 0.35 },
  { id: 'marauders', file: 'timeline_marauders', size: '5x5',
    fens: ['[w*rkrw*/1w*w*w*1/5/5/5:-1:1:w]', '[w*1w*1w*/5/5/5/W*1W*1W*:0:1:w]', '[5/5/5/1W*W*W*1/W*RKRW*:1:1:w]'],
    target: 220, maxActions: [8, 28], maxTL: 6, pRec: 0.35, promoBoost: true },
  { id: 'noqueens', file: 'no_queens_7x7', size: '7x7',
    fens: ['[rnbknbr/p*p*p*p*p*p*p*/7/7/7/P*P*P*P*P*P*P*/RNBKNBR:0:1:w]'], target: 180, maxActions: [12, 36], maxTL: 5, pRec: 0.3 },
  { id: 'kofk', file: 'king_of_kings', size: '5x5', fens: ['[cckcc/5/5/5/CCKCC:0:1:w]'],
    target: 170, maxActions: [10, 36], maxTL: 6, pRec: 0.35 },
  { id: 'rqueen', file: 'royal_queen_showdown', size: '6x6', fens: ['[4y1/6/6/6/6/1Y4:0:1:w]'],
    target: 170, maxActions: [10, 40], maxTL: 6, pRec: 0.35 },
];

function headerText(g) {
  const h = [];
  if (g.fens) { h.push('[Board "custom"]'); h.push('[Size "' + g.size + '"]'); }
  else h.push('[Board "' + g.board + '"]');
  h.push('[Promotions "' + (g.promotions || 'Q') + '"]');
  let s = h.join('\n') + '\n';
  if (g.fens) s += g.fens.join('\n') + '\n';
  return s;
}

function oracleOpts(g, extra) {
  // the option object oracle.js builds for `<cmd> --promotions P [--timeout MS]`
  const args = ['state', '--promotions', g.promotions || 'Q'];
  const o = Oracle.parseArgs(args.concat(extra || []));
  return o;
}

// ------------------------------------------------------------------ helpers over raw boards
const isJump = (m) => m[0][0] !== m[1][0] || m[0][1] !== m[1][1];
function timelineCount(b) { let n = 0; for (const tl of b) if (tl) n++; return n; }
function destPiece(b, m) {
  const d = m[1];
  const tl = b[d[0]]; if (!tl) return 0; const bd = tl[d[1]]; if (!bd) return 0;
  return Math.abs(bd[d[2]][d[3]]);
}

// Weighted random order of the candidate moves, produced lazily.
// Categories: jumps from present boards, physical moves from present boards,
// moves from optional (non-present) playable boards.
function* orderedMoves(b, an, promo, rng, g, depth) {
  const pres = new Set(boardFuncs.present(b, an));
  const all = boardFuncs.moves(b, an, false, false, false, promo);
  const nTL = timelineCount(b);
  const cats = [[], [], []];
  for (const m of all) {
    const cat = pres.has(m[0][0]) ? (isJump(m) ? 0 : 1) : 2;
    let w = 1;
    if (destPiece(b, m) !== 0 || m.length === 3) w *= 4;
    if (m[1].length >= 5) w *= g.promoBoost ? 8 : 3;
    if (cat === 0 && !boardFuncs.positionIsLatest(b, m[1]) && nTL >= g.maxTL) w *= 0.05;
    cats[cat].push({ m, w });
  }
  // probability of picking a jump, by timeline count
  const pJ = nTL >= g.maxTL + 2 ? 0.02 : nTL >= g.maxTL ? 0.08 : nTL >= 3 ? 0.22 : 0.3;
  const pOpt = depth === 0 ? 0.05 : 0.02;
  const sumW = cats.map(c => c.reduce((s, x) => s + x.w, 0));
  while (cats[0].length + cats[1].length + cats[2].length) {
    let c;
    const r = rng();
    if (cats[2].length && (r < pOpt || (!cats[0].length && !cats[1].length))) c = 2;
    else if (cats[0].length && (!cats[1].length || rng() < pJ)) c = 0;
    else if (cats[1].length) c = 1;
    else c = 2;
    const list = cats[c];
    let x = rng() * sumW[c], k = 0;
    for (; k < list.length - 1; k++) { x -= list[k].w; if (x < 0) break; }
    const pick = list[k];
    list.splice(k, 1); sumW[c] -= pick.w;
    yield pick.m;
  }
}

// Randomised depth-first search for one legal action; deterministic for a
// given rng state (node-limited, no clocks). Returns {action, board} or
// {none:true} (search exhausted: no legal action) or {unknown:true}.
function randomAction(board, an, promo, rng, g, nodeLimit) {
  const startLens = board.map(tl => (tl ? tl.length : 0));
  const seen = new Set();
  let nodes = 0, hitLimit = false;
  const dfs = (b, ev, path, depth) => {
    if (ev.kind === 'legal') return { action: path, board: b };
    if (depth > 12) return null;
    for (const m of orderedMoves(b, an, promo, rng, g, depth)) {
      if (++nodes > nodeLimit) { hitLimit = true; return null; }
      // keep optional-board moves rare: at most 2 per action
      if (!ev.pres.includes(m[0][0]) && path.filter(p => !ev.pres.includes(p[0][0])).length >= 2) continue;
      const nb = Oracle.shallowCopy(b);
      boardFuncs.move(nb, m);
      const k = Oracle.stateKey(nb, startLens);
      if (seen.has(k)) continue;
      seen.add(k);
      const nev = Oracle.evalState(nb, an);
      if (nev.kind === 'dead') continue;
      const r = dfs(nb, nev, path.concat([m]), depth + 1);
      if (r || hitLimit) return r;
    }
    return null;
  };
  const rootEv = Oracle.evalState(board, an);
  if (rootEv.kind === 'dead') return { none: true };
  const r = dfs(board, rootEv, [], 0);
  if (r) return r;
  return hitLimit ? { unknown: true } : { none: true };
}

// ------------------------------------------------------------------ oracle answers
// Computes the record's answers exactly as `node oracle.js <cmd> --promotions P` does:
//   check-line: loadGame + replay (no partial action)      -> must be legal
//   state:      mateFuncs.checks(board, an, true)           -> check
//   moves --text: boardFuncs.moves(board, an, false, false, false, promo), formatMove
//   actions 0 --all-boards --timeout T: enumerateActions(mode 'all', max Infinity)
function answer(g, pgn, actionsTimeout) {
  const o = oracleOpts(g, ['--timeout', String(actionsTimeout)]);
  const game = Oracle.loadGame(pgn, o);
  const rep = Oracle.replay(game, o);
  if (rep.illegal || rep.partial) return { illegal: rep.illegal || 'partial' };
  const chess = game.chess, board = chess.rawBoard, an = chess.rawAction;
  const tomove = an % 2 === 0 ? 'white' : 'black';
  const check = !!mateFuncs.checks(board, an, true);
  const raw = boardFuncs.moves(board, an, false, false, false, chess.rawPromotionPieces);
  const moves = raw.map(m => Oracle.formatMove(board, m));
  let actions = null, actionsMs = 0;
  if (actionsWorthTrying(board, an, raw)) {
    const e = Oracle.enumerateActions(board, an, chess.rawPromotionPieces, { mode: 'all', max: Infinity, timeout: o.timeout });
    actionsMs = e.ms;
    if (e.exhausted) actions = e.found.length;
  }
  return { board, an, tomove, check, moves, actions, actionsMs, warnings: game.warnings };
}

function byteSort(a) {
  return a.slice().sort((x, y) => { const bx = Buffer.from(x), by = Buffer.from(y); return Buffer.compare(bx, by); });
}

// Deterministic guard for the exact action count: skip positions whose
// all-boards action set is obviously too large for a short search.
// (product over playable boards of (moves from that board + 1); the harness
// search visits about 10^4 states per second, and searches under this bound
// finish in a few seconds, far inside --actions-timeout.)
const ACTIONS_PRODUCT_CAP = 50000;
const NODE_LIMIT = 20000;
function actionsWorthTrying(board, an, rawMoves) {
  const per = new Map();
  for (const m of rawMoves) per.set(m[0][0], (per.get(m[0][0]) || 0) + 1);
  let prod = 1;
  for (const v of per.values()) prod *= (v + 1);
  return prod <= ACTIONS_PRODUCT_CAP;
}

// ------------------------------------------------------------------ game play
function movetext(actions) {
  // actions: array of strings (each one action, moves separated by spaces); white moves first
  const lines = [];
  for (let i = 0; i < actions.length; i += 2) {
    let s = (i / 2 + 1) + '. ' + actions[i];
    if (i + 1 < actions.length) s += ' / ' + actions[i + 1];
    lines.push(s);
  }
  return lines.join('\n') + (lines.length ? '\n' : '');
}

function stats() {
  return { records: 0, withActions: 0, check: 0, jumps: 0, captures: 0, promotions: 0, maxTL: 0, tlHist: {},
    illegal: 0, mismatch: 0, noActionEnds: 0, zeroActions: 0, games: 0, unknownEnds: 0, bytes: 0, duplicates: 0,
    warnings: 0, slowestMs: 0, slowest: null };
}

function runGroup(g, seed, out, log) {
  const rng = makeRng(seed + '/' + g.id);
  const target = Math.max(1, Math.round(g.target * OPT.scale));
  const header = headerText(g);
  const o = oracleOpts(g);
  const st = stats();
  const t0 = Date.now();
  const file = path.join(out, g.file + '.txt');
  const tmp = file + '.tmp';
  const fd = fs.openSync(tmp, 'w');
  const cmdLine = 'node scripts/oracle/gen_oracle_data.js --seed ' + seed + (OPT.scale !== 1 ? ' --scale ' + OPT.scale : '') +
    ' --actions-timeout ' + OPT.actionsTimeout;
  const head = [
    '# fived differential-test data: expected answers of the oracle engine',
    '# generator: scripts/oracle/gen_oracle_data.js (record format: scripts/oracle/README.md)',
    '# oracle: 5d-chess-js@' + LIB_VERSION + ' via ../shared/oracle/oracle.js (AGPL-3.0; answers only, no code)',
    '# group: ' + g.id + ' (' + (g.fens ? 'custom ' + g.size : g.board) + ', promotions ' + (g.promotions || 'Q') + ')',
    '# seed: ' + seed + ' (group stream "' + seed + '/' + g.id + '")',
    '# command: ' + cmdLine,
    '# moves = node oracle.js moves --text --promotions ' + (g.promotions || 'Q') + ' (sorted bytewise)',
    '# check = node oracle.js state --no-mate --promotions ' + (g.promotions || 'Q') + ' -> inCheck',
    '# actions = node oracle.js actions 0 --all-boards --text --timeout ' + OPT.actionsTimeout +
      ' --promotions ' + (g.promotions || 'Q') + ' -> count when "(all)", else skip',
    '',
  ].join('\n');
  fs.writeSync(fd, head);
  const seenPgn = new Set();
  // answers for the position after `acts`; writes one record; 'refused' if the
  // oracle does not replay the text (the game is then abandoned)
  const record = (id, acts, board, an, ended) => {
    const pgn = header + movetext(acts);
    if (seenPgn.has(pgn)) { st.duplicates++; return 'dup'; }
    seenPgn.add(pgn);
    const tq = Date.now();
    let a;
    try { a = answer(g, pgn, OPT.actionsTimeout); }
    catch (e) { a = { illegal: 'error: ' + e.message }; }
    if (a.illegal) {
      st.illegal++;
      log('  ' + id + ': oracle refused the line: ' + JSON.stringify(a.illegal));
      return 'refused';
    }
    if (JSON.stringify(a.board) !== JSON.stringify(board) || a.an !== an) {
      st.mismatch++;
      log('  ' + id + ': replayed position differs from the generated one; game dropped');
      return 'refused';
    }
    const actions = a.actions;
    const moves = byteSort(a.moves);
    const rec = '=== ' + id + '\n' + pgn +
      '--- tomove ' + a.tomove + '\n' +
      '--- check ' + a.check + '\n' +
      '--- actions ' + (actions === null ? 'skip' : actions) + '\n' +
      '--- moves ' + moves.length + '\n' + moves.map(m => m + '\n').join('') + '--- end\n';
    fs.writeSync(fd, rec);
    st.bytes += Buffer.byteLength(rec);
    st.records++;
    if (actions !== null) st.withActions++;
    if (actions === 0) st.zeroActions++;
    if (a.check) st.check++;
    if (a.warnings.length) st.warnings++;
    const ntl = timelineCount(a.board);
    st.tlHist[ntl] = (st.tlHist[ntl] || 0) + 1;
    if (ntl > st.maxTL) st.maxTL = ntl;
    const dt = Date.now() - tq;
    if (dt > st.slowestMs) { st.slowestMs = dt; st.slowest = id; }
    return 'ok';
  };
  {
    // the start position
    const game = Oracle.loadGame(header, o);
    record(g.id + '-start', [], game.chess.rawBoard, game.chess.rawAction, false);
  }
  let gameNo = 0;
  const MAX_BYTES = 2.8e6;
  while (st.records < target && st.bytes < MAX_BYTES && gameNo < target * 4) {
    gameNo++;
    st.games++;
    const len = g.maxActions[0] + rng.int(g.maxActions[1] - g.maxActions[0] + 1);
    const game = Oracle.loadGame(header, o);
    let board = game.chess.rawBoard, an = game.chess.rawAction;
    const promo = game.chess.rawPromotionPieces;
    const acts = [];
    let lastRecorded = -1;
    for (let k = 1; k <= len && st.records < target; k++) {
      // with probability 1/2 look at up to 4 random legal actions and prefer
      // one that gives check (random play alone rarely checks on big boards)
      let r = randomAction(board, an, promo, rng, g, NODE_LIMIT);
      if (r.action && rng() < 0.5) {
        for (let tries = 0; tries < 3 && !mateFuncs.checks(r.board, an + 1, true); tries++) {
          const r2 = randomAction(board, an, promo, rng, g, NODE_LIMIT);
          if (r2.action) r = r2;
        }
      }
      let ended = false;
      if (r.action) {
        let b = Oracle.shallowCopy(board);
        const txt = [];
        for (const m of r.action) {
          const info = { jump: isJump(m), cap: destPiece(b, m) !== 0 || m.length === 3, promo: m[1].length >= 5 };
          if (info.jump) st.jumps++;
          if (info.cap) st.captures++;
          if (info.promo) st.promotions++;
          txt.push(Oracle.formatMove(b, m));
          boardFuncs.move(b, m);
        }
        acts.push(txt.join(' '));
        board = r.board; an = an + 1;
      } else {
        ended = true;
        if (r.unknown) st.unknownEnds++; else st.noActionEnds++;
      }
      // record? (always the final position of a game that ended without a legal action)
      // record? (always the final position of a game that ended without a legal action)
      const doRec = ended ? !!r.none : rng() < (k <= 2 ? g.pRec / 2 : g.pRec);
      if (doRec && acts.length !== lastRecorded) {
        lastRecorded = acts.length;
        const res = record(g.id + '-g' + gameNo + '-p' + acts.length, acts, board, an, ended);
        if (res === 'refused') break;
      }
      if (ended) break;
    }
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  st.seconds = Math.round((Date.now() - t0) / 1000);
  return st;
}

// ------------------------------------------------------------------ verification against the CLI
// Strict reader of the record format (also checks it: ids, field order, counts, sorting).
function parseRecords(text, fname, ids) {
  const recs = [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const fail = (i, msg) => { throw new Error(fname + ':' + (i + 1) + ': ' + msg); };
  let i = 0;
  while (i < lines.length && (lines[i].startsWith('#') || lines[i] === '')) i++;
  while (i < lines.length) {
    if (!lines[i].startsWith('=== ')) fail(i, 'expected "=== id"');
    const r = { id: lines[i].slice(4), pgn: '', moves: [] };
    if (ids.has(r.id)) fail(i, 'duplicate id ' + r.id);
    ids.add(r.id);
    i++;
    while (i < lines.length && !lines[i].startsWith('--- ')) { if (lines[i].startsWith('===')) fail(i, 'unexpected ==='); r.pgn += lines[i] + '\n'; i++; }
    const field = (name, re) => {
      const m = new RegExp('^--- ' + name + ' (' + re + ')$').exec(lines[i] || '');
      if (!m) fail(i, 'expected --- ' + name);
      i++; return m[1];
    };
    r.tomove = field('tomove', 'white|black');
    r.check = field('check', 'true|false');
    r.actions = field('actions', '\\d+|skip');
    const k = Number(field('moves', '\\d+'));
    for (let j = 0; j < k; j++, i++) {
      if (i >= lines.length || lines[i].startsWith('---') || lines[i].startsWith('===')) fail(i, 'too few move lines');
      r.moves.push(lines[i]);
    }
    if (lines[i] !== '--- end') fail(i, 'expected --- end');
    i++;
    if (byteSort(r.moves).join('\n') !== r.moves.join('\n')) fail(i, r.id + ': moves not sorted');
    if (r.actions === '0' && r.check === undefined) fail(i, 'bad');
    recs.push(r);
  }
  return recs;
}

function runCli(args, input, timeoutMs) {
  const r = childProcess.spawnSync(process.execPath, [ORACLE_JS].concat(args), { input, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 });
  return { code: r.status, out: r.stdout || '', err: r.stderr || '' };
}

function verify(n, seed) {
  const rng = makeRng('verify/' + seed);
  const files = fs.readdirSync(OPT.out).filter(f => f.endsWith('.txt')).sort();
  const all = [];
  const ids = new Set();
  let nA = 0, bytes = 0;
  for (const f of files) {
    const text = fs.readFileSync(path.join(OPT.out, f), 'utf8');
    bytes += Buffer.byteLength(text);
    const recs = parseRecords(text, f, ids);
    let fa = 0;
    for (const r of recs) {
      const prom = (/\[Promotions "([^"]*)"\]/.exec(r.pgn) || [])[1] || 'Q';
      all.push({ f, prom, r });
      if (r.actions !== 'skip') fa++;
    }
    nA += fa;
    process.stdout.write('format ok: ' + f + ' ' + recs.length + ' records, ' + fa + ' with action counts, ' + Buffer.byteLength(text) + ' bytes\n');
  }
  process.stdout.write('format ok: ' + all.length + ' records in ' + files.length + ' files, ' + nA + ' with action counts, ' + bytes + ' bytes\n');
  // prefer records with an action count for half of the sample
  const cand = all.filter(x => !x.r.id.endsWith('-start'));
  const withA = cand.filter(x => x.r.actions !== 'skip'), noA = cand.filter(x => x.r.actions === 'skip');
  const pick = [];
  const take = (arr, k) => { for (let i = 0; i < k && arr.length; i++) pick.push(arr.splice(rng.int(arr.length), 1)[0]); };
  take(withA, Math.ceil(n / 2)); take(noA, n - pick.length); take(withA, n - pick.length);
  let bad = 0;
  for (const { f, prom, r } of pick) {
    const P = ['--promotions', prom];
    const errs = [];
    const cl = runCli(['check-line'].concat(P), r.pgn, 120000);
    if (cl.code !== 0) errs.push('check-line exit ' + cl.code);
    const stt = runCli(['state', '--no-mate'].concat(P), r.pgn, 120000);
    try {
      const js = JSON.parse(stt.out);
      if (js.player !== r.tomove) errs.push('tomove ' + js.player);
      if (String(js.inCheck) !== r.check) errs.push('check ' + js.inCheck);
    } catch (e) { errs.push('state: ' + e.message); }
    const mv = runCli(['moves', '--text'].concat(P), r.pgn, 120000);
    const cliMoves = byteSort(mv.out.split('\n').filter(Boolean));
    if (mv.code !== 0 || cliMoves.join('\n') !== r.moves.join('\n')) errs.push('moves differ (' + cliMoves.length + ' vs ' + r.moves.length + ')');
    if (r.actions !== 'skip') {
      const ac = runCli(['actions', '0', '--all-boards', '--text', '--timeout', '60000'].concat(P), r.pgn, 120000);
      const m = /# count (\d+) \((all|capped)\)\s*$/.exec(ac.out);
      if (!m || m[2] !== 'all' || m[1] !== r.actions) errs.push('actions ' + (m ? m[1] + ' ' + m[2] : 'exit ' + ac.code));
    }
    process.stdout.write((errs.length ? 'FAIL ' : 'ok   ') + f + ' ' + r.id + ' (moves ' + r.moves.length + ', actions ' + r.actions +
      ', check ' + r.check + ')' + (errs.length ? ': ' + errs.join('; ') : '') + '\n');
    if (errs.length) bad++;
  }
  process.stdout.write(pick.length + ' records checked against node oracle.js, ' + bad + ' failed\n');
  return bad ? 1 : 0;
}

// ------------------------------------------------------------------ main
function main() {
  if (OPT.list) { for (const g of GROUPS) process.stdout.write(g.id + '\t' + g.file + '.txt\t' + g.target + '\n'); return 0; }
  if (OPT.seed === null) { process.stderr.write('gen_oracle_data: --seed is required\n'); return 2; }
  if (OPT.verify) return verify(OPT.verify, OPT.seed);
  fs.mkdirSync(OPT.out, { recursive: true });
  const log = (s) => { if (!OPT.quiet) process.stderr.write(s + '\n'); };
  const groups = OPT.groups ? GROUPS.filter(g => OPT.groups.includes(g.id)) : GROUPS;
  if (OPT.groups && groups.length !== OPT.groups.length) { process.stderr.write('unknown group in --groups (see --list)\n'); return 2; }
  const T0 = Date.now();
  let total = 0, totalA = 0;
  for (const g of groups) {
    log('group ' + g.id + ' ...');
    const st = runGroup(g, OPT.seed, OPT.out, log);
    total += st.records; totalA += st.withActions;
    log('  ' + JSON.stringify(st));
  }
  log('total ' + total + ' records, ' + totalA + ' with action counts, ' + Math.round((Date.now() - T0) / 1000) + ' s');
  return 0;
}
process.exitCode = main();
