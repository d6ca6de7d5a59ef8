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
    actionsTimeout: 60000, verify: 0, list: false, quiet: false, sets: false };
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
    else if (a === '--sets') o.sets = true;
    else if (a === '--dump') { o.dump = { file: next(), game: next(), k: Number(next()) }; }
    else throw new Error('unknown argument ' + a);
  }
  return o;
}
const OPT = parseArgs(process.argv.slice(2));
if (OPT.sets && !process.argv.includes('--out')) OPT.out = path.join(REPO_ROOT, 'tests', 'data', 'oracle_sets');

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

// A new game of group g: its random length and the start position.
function startGame(g, header, o, rng) {
  const len = g.maxActions[0] + rng.int(g.maxActions[1] - g.maxActions[0] + 1);
  const game = Oracle.loadGame(header, o);
  return { len, board: game.chess.rawBoard, an: game.chess.rawAction, promo: game.chess.rawPromotionPieces };
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
    const { len, board: board0, an: an0, promo } = startGame(g, header, o, rng);
    let board = board0, an = an0;
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

// ------------------------------------------------------------------ --sets: legal-action sets
// Every built-in variant of fived (movegen/variants.cpp), played at random as above. For each
// recorded position: side to move, check, a digest of the pseudo-legal single moves and, where
// the exact search is affordable, the number of legal actions and a digest of their canonical
// texts (full list for a sample). Format and canonical texts: scripts/oracle/README.md
// ("Legal-action sets").
const starred = (fen) => fen.replace(/^\[[^:]*/, (rows) => rows.replace(/([pPwW])/g, '$1*'));
const custom = (id, file, size, fens, extra) => Object.assign({ id, file, size, fens: fens.map(starred),
  maxActions: [10, 36], maxTL: 6, pRec: 0.6 }, extra || {});
const byId = (id, extra) => Object.assign({}, GROUPS.find(g => g.id === id), { pRec: 0.6 }, extra || {});
const SET_GROUPS = [
  byId('standard', { maxActions: [10, 36] }), byId('turn-zero'), byId('two-tl'), byId('def-pawn'),
  byId('half-refl'), { id: 'princess', file: 'princess', board: 'Standard - Princess', maxActions: [12, 34], maxTL: 5, pRec: 0.6 },
  byId('rev-royal'), byId('small'), byId('small-up'),
  custom('small-flipped', 'small_flipped', '5x5', ['[nbrqk/ppppp/5/PPPPP/KQRBN:0:1:w]']),
  custom('small-centered', 'small_centered', '5x5', ['[rnkqr/ppppp/5/PPPPP/RQKNR:0:1:w]']),
  custom('small-open', 'small_open', '5x5', ['[prnbk/3pp/5/PP3/KBNRP:0:1:w]']),
  byId('vsmall'), custom('vsmall-open', 'very_small_open', '4x4', ['[nbrk/3p/P3/KRBN:0:1:w]']),
  byId('noqueens'),
  custom('knights-bishop', 'knights_vs_bishop', '6x6', ['[rbqkbr/pppppp/6/6/PPPPPP/RNQKNR:0:1:w]']),
  custom('no-bishops', 'no_bishops', '6x6', ['[rnqknr/pppppp/6/6/PPPPPP/RNQKNR:0:1:w]']),
  custom('no-knights', 'no_knights', '6x6', ['[rbqkbr/pppppp/6/6/PPPPPP/RBQKBR:0:1:w]']),
  custom('no-rooks', 'no_rooks', '6x6', ['[nbqkbn/pppppp/6/6/PPPPPP/NBQKBN:0:1:w]']),
  custom('simple-set', 'simple_set', '6x6', ['[rnbqkr/pppppp/6/6/PPPPPP/RKQBNR:0:1:w]']),
  byId('knights'), custom('bishops', 'just_bishops', '5x5', ['[1bbk1/5/5/5/1KBB1:0:1:w]']),
  custom('rooks', 'just_rooks', '5x5', ['[1rk1r/5/5/5/R1KR1:0:1:w]']),
  custom('queens', 'just_queens', '6x6', ['[1q1k2/6/6/6/6/2K1Q1:0:1:w]']),
  custom('pawns', 'just_pawns', '5x5', ['[ppppk/5/5/5/KPPPP:0:1:w]'], { promoBoost: true }),
  custom('kings', 'just_kings', '3x3', ['[2k/3/K2:0:1:w]']),
  byId('unicorns'), byId('dragons'), byId('brawns'),
  byId('invasion'),
  custom('formations', 'timeline_formations', '5x5', ['[ppppp/5/5/5/2K2:-0:1:w]', '[2k2/5/5/5/PPPPP:+0:1:w]']),
  custom('tactitian', 'timeline_tactitian', '4x4', ['[kbnr/pppp/4/4:-0:1:w]', '[4/4/PPPP/KBNR:+0:1:w]']),
  custom('strategos', 'timeline_strategos', '5x5', ['[nbkur/ppppp/5/5/5:-0:1:w]', '[5/5/5/PPPPP/RUKBN:+0:1:w]']),
  custom('skirmish', 'timeline_skirmish', '5x5', ['[3rk/3pp/5/BB3/NN3:-0:1:w]', '[3nn/3bb/5/PP3/KR3:+0:1:w]']),
  custom('fragments', 'timeline_fragments', '4x4', ['[kppp/4/4/NBRU:-0:1:b]', '[nbru/4/4/KPPP:+0:1:w]']),
  custom('battlegrounds', 'timeline_battlegrounds', '5x5', ['[rrkrr/bbqbb/ppppp/5/PPPPP:-1:1:w]',
    '[nnnnn/ppppp/5/PPPPP/NNNNN:0:1:w]', '[ppppp/5/PPPPP/BBQBB/RRKRR:1:1:w]']),
  byId('marauders'), byId('kofk'), byId('rqueen'),
  custom('excessive', 'excessive', '7x7', ['[kruqdrk/rnbknbr/ppppppp/7/PPPPPPP/RNBKNBR/KRUQDRK:0:1:w]']),
  custom('global-warming', 'global_warming', '1x1', ['[1:0:1:w]'], { maxActions: [1, 4] }),
  custom('practice-knight', 'practice_knight', '6x6', ['[5n/6/6/6/6/K5:0:1:w]']),
  custom('practice-bishop', 'practice_bishop', '6x6', ['[4b1/6/6/6/6/K5:0:1:w]']),
  custom('practice-rook', 'practice_rook', '6x6', ['[5r/6/6/6/6/K5:0:1:w]']),
  custom('practice-queen', 'practice_queen', '6x6', ['[4q1/6/6/6/6/K5:0:1:w]']),
  custom('practice-pawns', 'practice_pawns', '6x6', ['[2ppp1/6/6/6/6/3K2:0:1:w]'], { promoBoost: true }),
];
const SETS_TARGET = 240;          // positions per group (times --scale)
const SETS_PRODUCT_CAP = 20000;   // exact action search only below this (see actionsWorthTrying)
const SETS_SAMPLE = 0.04;         // share of positions with an action count whose list is written
const SETS_SAMPLE_MAX = 400;      // ... when it has at most this many actions

// Canonical texts (the C++ test builds the same from fived's moves):
//   move:   "l1,v1,s1>l2,v2,s2" [+ "=P"], fived's internal timeline index l (RULES §1.3), v = 2T + c
//           (c = 0 White, 1 Black), square s = 8 * (rank - 1) + file (a = 0);
//   action: its non-branching moves' texts sorted, then (if it has branching jumps) "|" and the
//           branching jumps' texts in the order they are made (that order names the new
//           timelines), all joined by " ";
//           several orders of the same jumps that give the same position: the smallest text.
const MOVE_RE = /^\(([-+]?\d+)T(\d+)\)([A-Z]?)([a-h][1-8])(?:(>>?)(x?)\(([-+]?\d+)T(\d+)\)|(x?))([a-h][1-8])(?:=([A-Z]))?$/;
function tlIndex(label, even) {
  const signed = label[0] === '-' || label[0] === '+';
  const neg = label[0] === '-', mag = Number(signed ? label.slice(1) : label);
  if (!even) return neg ? -mag : mag;
  if (mag === 0 && !signed) throw new Error('timeline 0 in an even game');
  return neg ? -mag - 1 : mag;
}
function canonMove(text, even, color) {
  const m = MOVE_RE.exec(text);
  if (!m) throw new Error('cannot parse the oracle move ' + text);
  const sq = (t) => 8 * (t.charCodeAt(1) - 49) + (t.charCodeAt(0) - 97);
  const l1 = tlIndex(m[1], even), v1 = 2 * Number(m[2]) + color;
  const l2 = m[5] ? tlIndex(m[7], even) : l1, v2 = m[5] ? 2 * Number(m[8]) + color : v1;
  return { text: l1 + ',' + v1 + ',' + sq(m[4]) + '>' + l2 + ',' + v2 + ',' + sq(m[10]) + (m[11] ? '=' + m[11] : ''),
    branching: m[5] === '>>' };
}
function actionCanon(board, path, even, color) {
  const b = Oracle.shallowCopy(board);
  const plain = [], branch = [];
  for (const m of path) {
    const c = canonMove(Oracle.formatMove(b, m), even, color);
    (c.branching ? branch : plain).push(c.text);
    boardFuncs.move(b, m);
  }
  plain.sort();
  return { text: plain.concat(branch.length ? ['|'].concat(branch) : []).join(' '), board: b, branch: branch.length };
}
function permutations(n) {
  const out = [];
  const rec = (p, used) => { if (p.length === n) { out.push(p.slice()); return; }
    for (let i = 0; i < n; i++) if (!used[i]) { used[i] = true; p.push(i); rec(p, used); p.pop(); used[i] = false; } };
  rec([], []);
  return out;
}
// The canonical text of the class of `path`: the smallest over the actions that reach the same
// position. Those differ from `path` in which of two identical pieces makes which jump (two
// queens of one colour jumping to two squares, in either assignment), in a branching jump landing
// on another board of the same time with the same content (the new timeline gets the same
// board), and in the order of the jumps (which names the new timelines). Each such alternative
// made of moves the mover has (startMoves) and reaching the same boards belongs to the class;
// fived enumerates them all.
const MAX_CLASS_JUMPS = 4;
function classCanon(board, path, even, color, startLens, startMoves) {
  const c = actionCanon(board, path, even, color);
  const jumps = [];
  path.forEach((m, i) => { if (isJump(m)) jumps.push(i); });
  if (jumps.length === 0) return c.text;
  if (jumps.length > MAX_CLASS_JUMPS) return c.text; // rare; the test then compares the count only
  const key = Oracle.stateKey(c.board, startLens);
  const code = (m) => Math.abs(board[m[0][0]][m[0][1]][m[0][2]][m[0][3]]); // negative: unmoved
  // the targets a jump may take instead: the same square on boards of the same time and content
  const twins = (dst) => {
    const out = [dst];
    const same = JSON.stringify(board[dst[0]][dst[1]]);
    board.forEach((tl, l) => {
      if (l !== dst[0] && tl && tl[dst[1]] && JSON.stringify(tl[dst[1]]) === same)
        out.push([l].concat(dst.slice(1)));
    });
    return out;
  };
  const perms = permutations(jumps.length);
  let best = c.text;
  const tryPath = (p) => {
    let alt;
    try { alt = actionCanon(board, p, even, color); } catch (e) { return; }
    if (alt.text < best && Oracle.stateKey(alt.board, startLens) === key) best = alt.text;
  };
  for (const tp of perms) {
    if (!tp.every((t, k) => code(path[jumps[k]]) === code(path[jumps[t]]))) continue;
    // jump k gets the target of jump tp[k], or a twin of it
    const choices = jumps.map((s, k) => twins(path[jumps[tp[k]]][1]).map(d => [path[s][0], d])
      .filter(m => startMoves.has(JSON.stringify(m))));
    if (choices.some(ch => !ch.length)) continue;
    const pick = (k, moved) => {
      if (k === jumps.length) {
        for (const op of perms) {
          const p = moved.slice();
          jumps.forEach((s, i) => { p[s] = moved[jumps[op[i]]]; });
          tryPath(p);
        }
        return;
      }
      for (const m of choices[k]) { const nm = moved.slice(); nm[jumps[k]] = m; pick(k + 1, nm); }
    };
    pick(0, path.slice());
  }
  return best;
}
const digest = (lines) => require('crypto').createHash('md5').update(lines.map(l => l + '\n').join('')).digest('hex').slice(0, 16);

function setsAnswer(board, an, promo, even) {
  const color = an % 2;
  const check = !!mateFuncs.checks(board, an, true);
  const raw = boardFuncs.moves(board, an, false, false, false, promo);
  const moves = byteSort(raw.map(m => canonMove(Oracle.formatMove(board, m), even, color).text));
  let actions = null;
  const per = new Map();
  for (const m of raw) per.set(m[0][0], (per.get(m[0][0]) || 0) + 1);
  let prod = 1;
  for (const v of per.values()) prod *= (v + 1);
  if (prod <= SETS_PRODUCT_CAP) {
    const e = Oracle.enumerateActions(board, an, promo, { mode: 'all', max: Infinity, timeout: OPT.actionsTimeout });
    if (e.exhausted) {
      const startLens = board.map(tl => (tl ? tl.length : 0));
      const startMoves = new Set(raw.filter(isJump).map(m => JSON.stringify([m[0], m[1]])));
      actions = byteSort(e.found.map(p => classCanon(board, p, even, color, startLens, startMoves)));
      for (let i = 1; i < actions.length; i++)
        if (actions[i] === actions[i - 1]) throw new Error('two oracle actions with one canonical text: ' + actions[i]);
    }
  }
  return { tomove: color ? 'b' : 'w', check, moves, actions };
}

function runSetsGroup(g, seed, out, log) {
  const rng = makeRng(seed + '/sets/' + g.id);
  const target = Math.max(1, Math.round(SETS_TARGET * OPT.scale));
  const header = headerText(g);
  const o = oracleOpts(g);
  const st = { positions: 0, withActions: 0, sampled: 0, games: 0, dropped: 0, check: 0, zeroActions: 0,
    tlHist: {}, maxActions: 0, seconds: 0 };
  const t0 = Date.now();
  const file = path.join(out, g.file + '.txt');
  const fd = fs.openSync(file + '.tmp', 'w');
  fs.writeSync(fd, [
    '# fived differential-test data: legal-action sets of the oracle engine (format: scripts/oracle/README.md)',
    '# generator: node scripts/oracle/gen_oracle_data.js --sets --seed ' + seed + (OPT.scale !== 1 ? ' --scale ' + OPT.scale : ''),
    '# oracle: 5d-chess-js@' + LIB_VERSION + ' via ../shared/oracle/oracle.js (AGPL-3.0; answers only, no code)',
    '# group: ' + g.id + ' (' + (g.fens ? 'custom ' + g.size : g.board) + ', promotions ' + (g.promotions || 'Q') + ')',
    '', ''].join('\n'));
  const isEven = /:[-+]0:/.test(header) || /Two Timelines/.test(header);
  let gameNo = 0;
  while (st.positions < target && gameNo < target) {
    gameNo++;
    st.games++;
    const { len, board: board0, an: an0, promo } = startGame(g, header, o, rng);
    let board = board0, an = an0;
    const acts = [], recs = [];
    const rec = (k) => {
      const a = setsAnswer(board, an, promo, isEven);
      let line = 'pos ' + k + ' ' + a.tomove + ' ' + (a.check ? 1 : 0) + ' ' + a.moves.length + ' ' + digest(a.moves) + ' ' +
        (a.actions ? a.actions.length + ' ' + digest(a.actions) : 'skip -') + '\n';
      if (a.actions && a.actions.length <= SETS_SAMPLE_MAX && rng() < SETS_SAMPLE) {
        line += a.actions.map(t => 'a ' + t + '\n').join('');
        st.sampled++;
      }
      recs.push({ line, a, ntl: timelineCount(board) });
    };
    if (gameNo === 1) rec(0);
    for (let k = 1; k <= len; k++) {
      const r = randomAction(board, an, promo, rng, g, NODE_LIMIT);
      if (!r.action) { if (r.none && recs.length && !recs[recs.length - 1].line.startsWith('pos ' + acts.length + ' ')) rec(acts.length); break; }
      let b = Oracle.shallowCopy(board);
      const txt = [];
      for (const m of r.action) { txt.push(Oracle.formatMove(b, m)); boardFuncs.move(b, m); }
      acts.push(txt.join(' '));
      board = r.board; an = an + 1;
      if (rng() < (k <= 2 ? g.pRec / 2 : g.pRec)) rec(k);
    }
    // the oracle's loader must replay the whole game to the same position
    const pgn = header + movetext(acts);
    let ok = true;
    try {
      const gm = Oracle.loadGame(pgn, o);
      const rep = Oracle.replay(gm, o);
      ok = !rep.illegal && !rep.partial && JSON.stringify(gm.chess.rawBoard) === JSON.stringify(board) && gm.chess.rawAction === an;
    } catch (e) { ok = false; }
    if (!ok) { st.dropped++; log('  ' + g.id + '-g' + gameNo + ': the oracle does not replay the game; dropped'); continue; }
    if (!recs.length) continue;
    fs.writeSync(fd, 'game ' + g.id + '-g' + gameNo + '\n' + header + acts.map(a => 'act ' + a + '\n').join('') +
      recs.map(r => r.line).join('') + 'end\n');
    for (const r of recs) {
      st.positions++;
      if (r.a.actions) { st.withActions++; st.maxActions = Math.max(st.maxActions, r.a.actions.length); if (!r.a.actions.length) st.zeroActions++; }
      if (r.a.check) st.check++;
      st.tlHist[r.ntl] = (st.tlHist[r.ntl] || 0) + 1;
    }
  }
  fs.closeSync(fd);
  fs.renameSync(file + '.tmp', file);
  st.seconds = Math.round((Date.now() - t0) / 1000);
  return st;
}

// --dump FILE GAME K: the oracle's canonical moves and actions of one recorded position of a
// --sets file (for investigating a difference the C++ test reports).
function dumpPosition(d) {
  const lines = fs.readFileSync(d.file, 'utf8').split('\n');
  const at = lines.indexOf('game ' + d.game);
  if (at < 0) { process.stderr.write('no game ' + d.game + '\n'); return 2; }
  let header = '';
  const acts = [];
  for (let i = at + 1; i < lines.length && lines[i] !== 'end'; i++) {
    if (lines[i].startsWith('[')) header += lines[i] + '\n';
    else if (lines[i].startsWith('act ')) acts.push(lines[i].slice(4));
  }
  const promos = (/\[Promotions "([^"]*)"\]/.exec(header) || [])[1] || 'Q';
  const o = Oracle.parseArgs(['state', '--promotions', promos]);
  const game = Oracle.loadGame(header + movetext(acts.slice(0, d.k)), o);
  const rep = Oracle.replay(game, o);
  if (rep.illegal || rep.partial) { process.stderr.write('the oracle does not replay it\n'); return 1; }
  const chess = game.chess;
  const a = setsAnswer(chess.rawBoard, chess.rawAction, chess.rawPromotionPieces, /:[-+]0:/.test(header) || /Two Timelines/.test(header));
  process.stdout.write('# moves ' + a.moves.length + ' ' + digest(a.moves) + '\n' + a.moves.map(m => 'm ' + m + '\n').join(''));
  if (a.actions) process.stdout.write('# actions ' + a.actions.length + ' ' + digest(a.actions) + '\n' + a.actions.map(t => 'a ' + t + '\n').join(''));
  return 0;
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
  if (OPT.list) { for (const g of (OPT.sets ? SET_GROUPS : GROUPS)) process.stdout.write(g.id + '\t' + g.file + '.txt\t' + g.target + '\n'); return 0; }
  if (OPT.dump) return dumpPosition(OPT.dump);
  if (OPT.seed === null) { process.stderr.write('gen_oracle_data: --seed is required\n'); return 2; }
  if (OPT.verify && OPT.sets) { process.stderr.write('gen_oracle_data: --verify checks the record files, not --sets\n'); return 2; }
  if (OPT.verify) return verify(OPT.verify, OPT.seed);
  fs.mkdirSync(OPT.out, { recursive: true });
  const log = (s) => { if (!OPT.quiet) process.stderr.write(s + '\n'); };
  const all = OPT.sets ? SET_GROUPS : GROUPS;
  const groups = OPT.groups ? all.filter(g => OPT.groups.includes(g.id)) : all;
  if (OPT.groups && groups.length !== OPT.groups.length) { process.stderr.write('unknown group in --groups (see --list)\n'); return 2; }
  const T0 = Date.now();
  let total = 0, totalA = 0;
  for (const g of groups) {
    log('group ' + g.id + ' ...');
    const st = (OPT.sets ? runSetsGroup : runGroup)(g, OPT.seed, OPT.out, log);
    total += OPT.sets ? st.positions : st.records; totalA += st.withActions;
    log('  ' + JSON.stringify(st));
  }
  log('total ' + total + ' records, ' + totalA + ' with action counts, ' + Math.round((Date.now() - T0) / 1000) + ' s');
  return 0;
}
process.exitCode = main();
