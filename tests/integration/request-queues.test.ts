/**
 * The request queues (spec 02 §2 "Queues", §5 "Queue item", §7 GET itp-queue / provider-queue):
 * what each lists, the unread-assignment alert, search, sort, paging, the role gates, and the
 * live reload after a change.
 */
import { io, type Socket } from 'socket.io-client';
import { ErrorCode, REQUEST_QUEUE_PAGE_SIZE, type RequestQueueItem } from '@crisis/forms';
import { API_URL, api, eventually } from '../support/api';
import { createCase, tampaDivisions, uniqueLetters } from '../support/cases';
import { db } from '../support/db';
import { signInAs } from '../support/oidc-client';

describe('request queues', () => {
  let coordinator: string;
  let provider: string;
  let facilityUser: string;
  let providerId: number;
  let floor: { facilityId: number; divisionId: number };
  const sockets: Socket[] = [];
  afterAll(() => sockets.forEach((s) => s.close()));

  beforeAll(async () => {
    coordinator = (await signInAs('IntegratedTelehealthPartners_User')).accessToken;
    provider = (await signInAs('IntegratedTelehealthPartners_Provider')).accessToken;
    facilityUser = (await signInAs('Facility_User')).accessToken;
    providerId = (await db.query("SELECT id FROM users WHERE email = 'provider@itp.example.org'")).rows[0].id;
    const tampa = await tampaDivisions();
    floor = { facilityId: tampa.facilityId, divisionId: tampa.floorId };
  });

  const queue = (kind: 'itp' | 'provider', token: string, params: { q?: string; sort?: [string, string]; range?: [number, number] } = {}) => {
    const search = new URLSearchParams();
    if (params.q) search.set('filter', JSON.stringify({ q: params.q }));
    if (params.sort) search.set('sort', JSON.stringify(params.sort));
    search.set('range', JSON.stringify(params.range ?? [0, 999]));
    return api<RequestQueueItem[]>('GET', `/api/requests/${kind}-queue?${search}`, { token });
  };
  const rowOf = async (kind: 'itp' | 'provider', token: string, requestId: number) =>
    (await queue(kind, token, { range: [0, 999] })).body.find((r) => r.requestId === requestId);
  const newCase = (lastName: string) =>
    createCase({ token: coordinator, facilityId: floor.facilityId, divisionId: floor.divisionId, providerId, patient: { lastName } });

  it('lists a request from its creation to its end in the ITP queue, with the unread-assignment alert until the provider opens the case', async () => {
    const lastName = `Queue${uniqueLetters()}`;
    const c = await newCase(lastName);
    const fresh = await rowOf('itp', coordinator, c.requestId);
    expect(fresh).toMatchObject({
      caseId: c.id,
      requestId: c.requestId,
      caseStatus: 'RequestSentToProvider_ProviderNotified',
      requestStatus: 'Pending',
      type: 'Assessment',
      unreadAssignment: true,
      evaluationProvider: { id: providerId },
      patient: { lastName, dateOfBirth: '1985-03-03', gender: 'Male' },
      sourceFacility: { id: floor.facilityId },
      sourceDivision: { id: floor.divisionId },
      contactPhoneNumber: '+18135550199',
    });
    expect(fresh!.timeElapsedSeconds).toBeGreaterThanOrEqual(0);
    // The provider opens the case: the request is in progress and the alert goes; the row stays.
    expect((await api('GET', `/api/cases/${c.id}`, { token: provider })).status).toBe(200);
    const opened = await eventually(async () => {
      const row = await rowOf('itp', coordinator, c.requestId);
      return row && !row.unreadAssignment ? row : null;
    }, 'the alert to clear');
    expect(opened).toMatchObject({ requestStatus: 'InProgress', unreadAssignment: false });
    // Cancelled: out of the queue.
    expect((await api('PUT', `/api/requests/${c.requestId}/cancel`, { token: coordinator, body: { reason: 'Duplicate request' } })).status).toBe(200);
    expect(await rowOf('itp', coordinator, c.requestId)).toBeUndefined();
  });

  it('shows a request without a provider in the ITP queue only, and the provider only his own', async () => {
    // A facility user may ask for an evaluation without naming a provider (ITP staff must name one).
    const lonely = await createCase({ token: facilityUser, providerId: null, patient: { lastName: `Noprov${uniqueLetters()}` } });
    const mine = await newCase(`Mine${uniqueLetters()}`);
    const row = await rowOf('itp', coordinator, lonely.requestId);
    expect(row).toMatchObject({ requestStatus: 'New', evaluationProvider: null, unreadAssignment: false, caseStatus: 'PendingAssignment_DocumentationReview' });
    const providerRows = (await queue('provider', provider)).body;
    expect(providerRows.map((r) => r.requestId)).toContain(mine.requestId);
    expect(providerRows.map((r) => r.requestId)).not.toContain(lonely.requestId);
    expect(providerRows.every((r) => r.evaluationProvider?.id === providerId)).toBe(true);
    expect(providerRows.every((r) => ['Pending', 'InProgress', 'OnHold'].includes(r.requestStatus))).toBe(true);
  });

  it('searches by patient name and by #reference, sorts by time elapsed, pages with the total in Content-Range', async () => {
    const lastName = `Findme${uniqueLetters()}`;
    const older = await newCase(lastName);
    const newer = await newCase(lastName);
    const byName = await queue('itp', coordinator, { q: lastName });
    expect(byName.body.map((r) => r.requestId).sort()).toEqual([older.requestId, newer.requestId].sort());
    const byRef = await queue('itp', coordinator, { q: `#${String(newer.id).padStart(6, '0')}` });
    expect(byRef.body.map((r) => r.requestId)).toContain(newer.requestId);
    expect(byRef.body.every((r) => r.caseId === newer.id || `${r.patient.firstName} ${r.patient.lastName}`.includes(String(newer.id)))).toBe(true);
    // Longest waiting first by default, newest first when reversed.
    const longest = (await queue('itp', coordinator, { q: lastName })).body;
    expect(longest.map((r) => r.requestId)).toEqual([older.requestId, newer.requestId]);
    const shortest = (await queue('itp', coordinator, { q: lastName, sort: ['timeElapsed', 'ASC'] })).body;
    expect(shortest.map((r) => r.requestId)).toEqual([newer.requestId, older.requestId]);
    // One page of the UI's size, and the filtered total.
    const all = await queue('itp', coordinator);
    const page = await queue('itp', coordinator, { range: [0, REQUEST_QUEUE_PAGE_SIZE.itp - 1] });
    expect(page.body.length).toBe(Math.min(REQUEST_QUEUE_PAGE_SIZE.itp, all.body.length));
    expect(page.headers.get('content-range')).toMatch(new RegExp(`/${all.body.length}$`));
    // A bad sort is a coded 400.
    const bad = await queue('itp', coordinator, { sort: ['nope', 'ASC'] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(ErrorCode.Invalid);
  });

  it('gives each queue to its roles only', async () => {
    expect((await queue('itp', provider)).status).toBe(403);
    expect((await queue('provider', coordinator)).status).toBe(403);
    expect((await queue('itp', facilityUser)).status).toBe(403);
    expect((await queue('provider', facilityUser)).status).toBe(403);
  });

  it('tells the open queue pages live when a request changes', async () => {
    const socket = io(API_URL, { path: '/socket.io', auth: { token: coordinator }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    await new Promise((resolve, reject) => {
      socket.on('ready', resolve);
      socket.on('connect_error', reject);
    });
    // The queue page joins the room while open.
    expect(await socket.timeout(10_000).emitWithAck('queue.join', {})).toEqual({ joined: true });
    const seen: number[] = [];
    socket.on('queue.changed', (e: { caseId: number }) => seen.push(e.caseId));
    const c = await newCase(`Live${uniqueLetters()}`);
    await eventually(async () => seen.includes(c.id), 'queue.changed for the new case');
  });
});
