import { useEffect, useState, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Snackbar,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  type ChipProps,
} from '@mui/material';
import { keyframes } from '@mui/material/styles';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import RefreshIcon from '@mui/icons-material/Refresh';
import { formatDateTime, formatPhone, isAcceptedPhone, toStoredPhone } from '@crisis/forms/core';
import { isCodedError } from '../data/codedError';
import { errorText, isPhoneOff, phoneApi, type CallStatus, type PhoneCall, type PhoneMessage, type ReplyResult } from './phoneApi';

/** Often enough that a call the platform just placed is seen ringing before it gives up. */
const POLL_MS = 2000;

type Feedback = { severity: 'success' | 'info' | 'warning' | 'error'; text: string };

/**
 * Polls both lists while mounted. `available` is null until the first answer and false when the
 * deployment has no local phone (then polling stops). A new `phone` or `reload()` loads at once;
 * the effect's cleanup drops answers of an older filter.
 */
function usePhoneLog(phone: string | null) {
  const [log, setLog] = useState<{ calls: PhoneCall[]; messages: PhoneMessage[] } | null>(null);
  const [available, setAvailable] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);

  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    let first = true;
    // The next poll is planned after this one answers, so a slow local phone never piles requests
    // up; a hidden browser tab skips its polls (a new filter or a Refresh loads anyway).
    const poll = async () => {
      if (first || !document.hidden) {
        first = false;
        try {
          const next = await phoneApi.list(phone);
          if (stopped) return;
          setLog(next);
          setAvailable(true);
          setError(null);
        } catch (e) {
          if (stopped) return;
          if (isPhoneOff(e)) return setAvailable(false);
          setAvailable(true); // the local phone exists but failed (e.g. restarting): say so
          setError(errorText(e));
        }
      }
      if (!stopped) timer = window.setTimeout(poll, POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [phone, reloads]);

  return { log, available, error, reload: () => setReloads((n) => n + 1) };
}

/** The filter narrows the lists only once it is a whole number (the API matches it exactly). */
const filterPhone = (text: string) => (isAcceptedPhone(text.trim(), true) ? toStoredPhone(text.trim()) : null);

/**
 * Demo tools "Phone": a person plays a facility's phone against the demo's local phone — answers
 * the platform's calls ("press 1 to confirm") and replies to its SMS ("reply 1 to confirm").
 * Hidden where there is no local phone.
 */
export function PhoneSimulator() {
  const [filter, setFilter] = useState('');
  const phone = filterPhone(filter);
  const { log, available, error, reload } = usePhoneLog(phone);
  const [tab, setTab] = useState<'calls' | 'sms'>('calls');
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  if (!available) return null; // not known yet, or no local phone in this deployment
  const ringing = log?.calls.filter((c) => c.status === 'ringing').length ?? 0;
  const filterHelp = !filter.trim() ? 'Empty: all phones' : phone ? `Sent to ${formatPhone(phone)}` : 'Type the whole number to filter';

  return (
    <Card variant="outlined" sx={{ mt: 3 }} data-testid="phone-simulator" component="section" aria-labelledby="phone-simulator-title">
      <CardHeader
        title="Phone"
        slotProps={{ title: { variant: 'h6', component: 'h2', id: 'phone-simulator-title' } }}
        subheader="Play a facility's phone: answer the platform's calls and reply to its SMS, newest first"
      />
      <CardContent sx={{ pt: 0 }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 2, flexWrap: 'wrap', mb: 1 }}>
          <TextField
            label="Phone number"
            size="small"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="(813) 555-0199"
            helperText={filterHelp}
            slotProps={{ htmlInput: { inputMode: 'tel', 'data-testid': 'phone-filter' } }}
          />
          <Button size="small" startIcon={<RefreshIcon />} onClick={reload} sx={{ mt: 0.5 }} data-testid="phone-refresh">
            Refresh
          </Button>
        </Box>
        {error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        <Tabs value={tab} onChange={(_e, v) => setTab(v)} sx={{ mb: 1 }} aria-label="Phone log">
          {/* The count tells a person on the SMS tab that a call is waiting. */}
          <Tab value="calls" label={ringing ? `Calls (${ringing} ringing)` : 'Calls'} data-testid="phone-tab-calls" />
          <Tab value="sms" label="SMS" data-testid="phone-tab-sms" />
        </Tabs>
        <Box sx={{ overflowX: 'auto' }}>
          {log && tab === 'calls' && <CallsTable calls={log.calls} onDone={reload} onError={(text) => setFeedback({ severity: 'error', text })} />}
          {log && tab === 'sms' && (
            <SmsTable
              messages={log.messages}
              onReplied={(f) => {
                setFeedback(f);
                reload();
              }}
            />
          )}
        </Box>
      </CardContent>
      <Snackbar open={!!feedback} autoHideDuration={8000} onClose={() => setFeedback(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}>
        {/* Snackbar needs one element child; keep the last text while it closes. */}
        <Alert severity={feedback?.severity ?? 'info'} onClose={() => setFeedback(null)} variant="filled" data-testid="phone-feedback">
          {feedback?.text}
        </Alert>
      </Snackbar>
    </Card>
  );
}

/* ------------------------------------------------------------------ calls */

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.5; }
`;

const CALL_STATUS: Record<CallStatus, { label: string; color: ChipProps['color'] }> = {
  queued: { label: 'Queued', color: 'default' },
  ringing: { label: 'Ringing', color: 'warning' },
  'in-progress': { label: 'In progress', color: 'info' },
  completed: { label: 'Completed', color: 'success' },
  'no-answer': { label: 'No answer', color: 'default' },
  busy: { label: 'Busy', color: 'default' },
  failed: { label: 'Failed', color: 'error' },
};

function CallStatusChip({ status }: { status: CallStatus }) {
  const s = CALL_STATUS[status] ?? { label: status, color: 'default' };
  // A ringing call pulses so it catches the eye (not for people who asked for less motion).
  const ringing = status === 'ringing' ? { animation: `${pulse} 1.2s ease-in-out infinite`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } } : {};
  return <Chip size="small" label={s.label} color={s.color} sx={ringing} data-testid="phone-call-status" />;
}

type CallAction = 'answer-1' | 'answer' | 'decline';

function CallsTable({ calls, onDone, onError }: { calls: PhoneCall[]; onDone: () => void; onError: (text: string) => void }) {
  // The call being acted on: answering plays the whole call, which takes a few seconds.
  const [busy, setBusy] = useState<{ sid: string; action: CallAction } | null>(null);

  const act = async (sid: string, action: CallAction) => {
    setBusy({ sid, action });
    try {
      if (action === 'decline') await phoneApi.decline(sid);
      else await phoneApi.answer(sid, action === 'answer-1' ? '1' : undefined);
    } catch (e) {
      onError(errorText(e));
    } finally {
      setBusy(null);
      onDone(); // the row shows the outcome (what was said, the key) after this reload
    }
  };

  return (
    <Table size="small" aria-label="Calls" data-testid="phone-calls">
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: 170 }}>Time</TableCell>
          <TableCell sx={{ width: 150 }}>To</TableCell>
          <TableCell sx={{ width: 120 }}>Status</TableCell>
          <TableCell>What was said</TableCell>
          <TableCell sx={{ width: 60 }}>Key</TableCell>
          <TableCell sx={{ width: 200 }}>Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {calls.length === 0 && (
          <TableRow>
            <TableCell colSpan={6}>No calls yet.</TableCell>
          </TableRow>
        )}
        {calls.map((c) => {
          const mine = busy?.sid === c.sid;
          const label = (action: CallAction, idle: string, running: string) => (mine && busy?.action === action ? running : idle);
          return (
            <TableRow key={c.sid} data-testid="phone-call-row" data-status={c.status} selected={c.status === 'ringing'}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.createdAt)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatPhone(c.to)}</TableCell>
              <TableCell>
                <CallStatusChip status={c.status} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="phone-call-spoken">
                {c.spoken.join('\n') || '—'}
              </TableCell>
              <TableCell data-testid="phone-call-digits">{c.digits || '—'}</TableCell>
              <TableCell>
                {c.status === 'ringing' && (
                  <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 0.5 }}>
                    <Button size="small" variant="contained" color="warning" disabled={!!busy} onClick={() => act(c.sid, 'answer-1')} data-testid="phone-answer-1">
                      {label('answer-1', 'Answer and press 1', 'Answering…')}
                    </Button>
                    <Button size="small" variant="outlined" disabled={!!busy} onClick={() => act(c.sid, 'answer')} data-testid="phone-answer">
                      {label('answer', 'Answer without a key', 'Answering…')}
                    </Button>
                    <Button size="small" disabled={!!busy} onClick={() => act(c.sid, 'decline')} data-testid="phone-decline">
                      {label('decline', 'Decline', 'Declining…')}
                    </Button>
                  </Box>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

/* -------------------------------------------------------------------- SMS */

function Direction({ direction }: { direction: PhoneMessage['direction'] }) {
  const outbound = direction === 'outbound';
  const Icon = outbound ? ArrowForwardIcon : ArrowBackIcon;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, whiteSpace: 'nowrap' }}>
      <Icon fontSize="small" aria-hidden color={outbound ? 'primary' : 'action'} />
      {outbound ? 'To phone' : 'From phone'}
    </Box>
  );
}

function SmsTable({ messages, onReplied }: { messages: PhoneMessage[]; onReplied: (f: Feedback) => void }) {
  // The phone that replies: the one the platform's message went to.
  const [replyFrom, setReplyFrom] = useState<string | null>(null);

  return (
    <>
      <Table size="small" aria-label="SMS" data-testid="phone-sms">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 170 }}>Time</TableCell>
            <TableCell sx={{ width: 120 }}>Direction</TableCell>
            <TableCell sx={{ width: 150 }}>From</TableCell>
            <TableCell sx={{ width: 150 }}>To</TableCell>
            <TableCell>Text</TableCell>
            <TableCell sx={{ width: 100 }}>Status</TableCell>
            <TableCell sx={{ width: 90 }}>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {messages.length === 0 && (
            <TableRow>
              <TableCell colSpan={7}>No SMS yet.</TableCell>
            </TableRow>
          )}
          {messages.map((m) => (
            <TableRow key={m.sid} data-testid="phone-sms-row" data-direction={m.direction}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.createdAt)}</TableCell>
              <TableCell>
                <Direction direction={m.direction} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{m.from ? formatPhone(m.from) : '—'}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatPhone(m.to)}</TableCell>
              <TableCell sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="phone-sms-body">
                {m.body}
              </TableCell>
              <TableCell>{m.status}</TableCell>
              <TableCell>
                {m.direction === 'outbound' && (
                  <Button size="small" onClick={() => setReplyFrom(m.to)} aria-label={`Reply from ${formatPhone(m.to)}`} data-testid="phone-sms-reply">
                    Reply
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {/* Mounted only while open, so every reply starts from "1" again. */}
      {replyFrom && (
        <ReplyDialog
          phone={replyFrom}
          onClose={() => setReplyFrom(null)}
          onSent={(f) => {
            setReplyFrom(null);
            onReplied(f);
          }}
        />
      )}
    </>
  );
}

/** What the person learns after sending: the platform's answer, or why there was none. */
function feedbackOf(result: ReplyResult): Feedback {
  if (result.reply) return { severity: 'success', text: `The platform replied: ${result.reply.body}` };
  if (result.webhookStatus !== null && (result.webhookStatus < 200 || result.webhookStatus >= 300))
    return { severity: 'warning', text: `Sent, but the platform answered HTTP ${result.webhookStatus}.` };
  return { severity: 'info', text: 'Sent. The platform did not reply.' };
}

/** `phone` texts the platform's number; prefilled with "1", the usual "reply 1 to confirm". */
function ReplyDialog({ phone, onClose, onSent }: { phone: string; onClose: () => void; onSent: (f: Feedback) => void }) {
  const [text, setText] = useState('1');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [bodyError, setBodyError] = useState<string | null>(null);

  const send = async (e: FormEvent) => {
    e.preventDefault(); // a form, so that Enter sends
    setBusy(true);
    setError(null);
    setBodyError(null);
    try {
      onSent(feedbackOf(await phoneApi.reply(phone, text)));
    } catch (err) {
      // A refused text shows on the field; anything else (e.g. the local phone is down) above it.
      const onBody = isCodedError(err) ? err.fields.find((f) => f.field === 'body') : undefined;
      if (onBody) setBodyError(onBody.message);
      else setError(errorText(err));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="phone-reply-title" data-testid="phone-reply-dialog">
      <form onSubmit={send} noValidate>
        <DialogTitle id="phone-reply-title">Reply by SMS</DialogTitle>
        <DialogContent sx={{ minWidth: 360 }}>
          <DialogContentText sx={{ mb: 2 }}>From {formatPhone(phone)} to the platform.</DialogContentText>
          {error && (
            <Alert severity="error" sx={{ mb: 2 }}>
              {error}
            </Alert>
          )}
          <TextField
            label="Message"
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoFocus
            fullWidth
            error={!!bodyError}
            helperText={bodyError ?? ' '}
            slotProps={{ htmlInput: { maxLength: 1600, 'data-testid': 'phone-reply-text' } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={busy || !text.trim()} data-testid="phone-reply-send">
            {busy ? 'Sending…' : 'Send'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
