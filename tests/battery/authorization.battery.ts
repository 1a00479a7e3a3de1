/**
 * Authorization battery: the role × route table and the row-scope table written from the spec
 * (tests/support/authorization-spec.ts, the same tables tests/integration/authorization-matrix.test.ts
 * checks), run cell by cell against the battery's stack. It proves that every route of the
 * OpenAPI document has a row, that every cell the spec writes (Y: served, N: 403 FRBD) gets that
 * answer from the role's demo user, that every guarded route refuses a caller without a token
 * (401 UNAUTH), and that rows out of a role's scope (another facility's case or settings, a case
 * not granted to a referring division, a request not assigned to the provider) are refused.
 *
 * Reading the figures:
 *   routes / cells            routes × 6 roles; cellsWritten = the Y and N cells, cellsUnspecified = '?'
 *   cellsChecked              calls made for Y/N cells: equal to cellsWritten (100% as written)
 *   anonymousChecked          every route once without a token
 *   scopeCellsChecked         the scope table's calls
 *   mismatches / gaps         where the API answered otherwise; knownGaps are the ones the spec
 *                             table already lists (KNOWN_GAPS): those are reported, not failed
 *   routesWithoutRow          routes no spec row speaks for (must be none)
 */
import {
  ANY_FACILITY_SQL, checkAnonymous, checkMatrix, checkScope, KNOWN_GAPS, KNOWN_SCOPE_GAPS, scopeTargets, signInRoles, SPEC, specRowFor,
} from '../support/authorization-spec';
import { db } from '../support/db';
import { listRoutes, routeKey } from '../support/openapi-routes';
import { writeReport, type BatteryCheck } from './support';

async function main() {
  const started = Date.now();
  const routes = await listRoutes();
  const guarded = routes.filter((r) => !r.isPublic);
  const withoutRow = guarded.filter((r) => !specRowFor(r)).map(routeKey);
  const unusedRows = SPEC.filter((s) => !guarded.some((r) => s.route.test(routeKey(r)))).map((s) => String(s.route));

  const sessions = await signInRoles();
  const anyFacilityId = (await db.query(ANY_FACILITY_SQL)).rows[0].id;
  const matrix = await checkMatrix(guarded.filter((r) => specRowFor(r)), sessions, anyFacilityId);
  const anonymous = await checkAnonymous(routes);
  const scope = await checkScope(await scopeTargets());

  const known = new Set([...KNOWN_GAPS, ...KNOWN_SCOPE_GAPS]);
  const gaps = [...matrix.gaps, ...scope.gaps, ...anonymous];
  const newGaps = gaps.filter((g) => !known.has(g));
  const fixedGaps = [...known].filter((g) => !gaps.includes(g));
  const cellsWritten = matrix.cells - matrix.unspecified;

  const checks: BatteryCheck[] = [
    { name: 'every route of the OpenAPI document has a spec row, and every row a route', ok: !withoutRow.length && !unusedRows.length, detail: [...withoutRow, ...unusedRows].join(', ') },
    { name: 'every written cell checked (100%)', ok: matrix.checked === cellsWritten && cellsWritten > 0, detail: `${matrix.checked} of ${cellsWritten}` },
    { name: 'every role × route cell answers as the spec says (apart from the known gaps)', ok: !matrix.gaps.some((g) => !known.has(g)), detail: matrix.gaps.filter((g) => !known.has(g)).slice(0, 20).join(' | ') },
    { name: 'every guarded route refuses a caller without a token (401 UNAUTH)', ok: !anonymous.length, detail: anonymous.slice(0, 20).join(' | ') },
    { name: 'rows out of scope are refused, the controls served (apart from the known gaps)', ok: !scope.gaps.some((g) => !known.has(g)), detail: scope.gaps.filter((g) => !known.has(g)).join(' | ') },
  ];
  writeReport({
    name: 'authorization',
    checks,
    figures: {
      routes: routes.length,
      guardedRoutes: guarded.length,
      cells: matrix.cells,
      cellsWritten,
      cellsUnspecified: matrix.unspecified,
      cellsChecked: matrix.checked,
      anonymousChecked: routes.length,
      scopeCellsChecked: scope.checked,
      mismatches: newGaps.length,
      gaps: newGaps.length ? newGaps.join(' | ') : 'none',
      knownGaps: known.size ? [...known].join(' | ') : 'none',
      knownGapsNowAnsweredAsSpecified: fixedGaps.length ? fixedGaps.join(' | ') : 'none',
      routesWithoutRow: withoutRow.length ? withoutRow.join(', ') : 'none',
      seconds: Math.round((Date.now() - started) / 1000),
    },
  });
  await db.end();
}

main().catch(async (err) => {
  writeReport({ name: 'authorization', checks: [{ name: 'ran to the end', ok: false, detail: String(err?.stack ?? err).slice(0, 1500) }], figures: {} });
  await db.end().catch(() => undefined);
  process.exit(1);
});
