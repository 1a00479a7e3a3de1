import { useState } from 'react';
import { useNotify } from 'react-admin';
import { Box, Button, Chip, Tooltip } from '@mui/material';
import VideocamIcon from '@mui/icons-material/Videocam';
import { ErrorCode, FACILITY_VIDEO_CALL_LOGOUT_MS, UserType, type OnlineMeetingView } from '@crisis/forms/core';
import { signOut } from '../auth/authProvider';
import { useSession } from '../auth/session';
import { BLANK_PATH } from '../auth/signedOut';
import { codeOf } from '../billing-codes/codedFields';
import { useAppData, useAppQuery } from '../data/query';

/** The tooltips of a join that cannot be (spec 01 §4, 02 §2 "Video evaluation", §8 INV.ONLINE.MEETING.ENDED). */
export const MEETING_TOOLTIPS = {
  ended: 'The video meeting has ended',
  endedProvider: 'The video meeting has ended: recreate the link to start a new one',
  missingProvider: 'The meeting link is missing: create it first',
  missingFacility: 'The video call is not ready yet: the provider has not created the meeting link',
};

/** Refreshes the joined flags while the screen is open (the other side may join any time). */
const POLL_MS = 15_000;

export interface VideoMeetingRequest {
  id: number;
  status: string;
  evaluationProviderId: number | null;
}

/**
 * Join buttons of a request's video meeting (spec 01 §4 "Video meeting", 02 §2): the request's
 * provider joins as the provider and may (re)create the link; partner staff may (re)create it;
 * the source facility joins for the patient and is then signed out after 2 seconds onto a blank
 * page. The joined flags show for everyone. An ended meeting or a missing link disables join with
 * a tooltip. The join opens the meeting (Jitsi) in a new tab.
 */
export function VideoMeetingControls({ request, size = 'small' }: { request: VideoMeetingRequest; size?: 'small' | 'medium' }) {
  const { ability, context } = useSession();
  const dp = useAppData();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const isProvider = context.role === UserType.ItpProvider && request.evaluationProviderId === context.id;
  const joinsForPatient = !isProvider && ability.can('update', 'OnlineMeeting') && context.organizationType === 'Facility';
  const canCreate = ability.can('create', 'OnlineMeeting') && (context.role !== UserType.ItpProvider || isProvider);
  const meeting = useAppQuery<OnlineMeetingView>(['onlineMeeting', request.id], (d) => d.onlineMeeting(request.id), { refetchInterval: POLL_MS });
  const code = codeOf(meeting.failure);
  const ended = code === ErrorCode.OnlineMeetingEnded;
  const missing = code === ErrorCode.NotFound;
  const view = meeting.data && !meeting.failure ? meeting.data : null;
  const active = ['New', 'Pending', 'InProgress', 'OnHold'].includes(request.status);

  const join = async () => {
    // Opened within the click, so no popup blocker stops it; the link follows once the join is recorded.
    const tab = window.open('about:blank', '_blank');
    setBusy(true);
    try {
      const joined = await dp.joinOnlineMeeting(request.id);
      if (tab) {
        tab.opener = null;
        tab.location.href = joined.joinUrl;
      } else window.open(joined.joinUrl, '_blank', 'noopener');
      meeting.reload();
      if (joinsForPatient) {
        notify('The video call opened in a new tab. You will be signed out in 2 seconds.', { type: 'info' });
        window.setTimeout(() => void signOut(BLANK_PATH), FACILITY_VIDEO_CALL_LOGOUT_MS);
      }
    } catch (e) {
      tab?.close();
      meeting.reload();
      notify(codeOf(e) === ErrorCode.OnlineMeetingEnded ? MEETING_TOOLTIPS.ended : (e as Error).message || 'The meeting could not be joined', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const create = async () => {
    setBusy(true);
    try {
      await dp.createOnlineMeeting(request.id);
      notify(view || ended ? 'A new meeting link was created' : 'The meeting link was created', { type: 'success' });
      meeting.reload();
    } catch (e) {
      notify((e as Error).message || 'The meeting link could not be created', { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  if (!isProvider && !joinsForPatient && !canCreate && !view) return null;
  const tooltip = ended ? (isProvider || canCreate ? MEETING_TOOLTIPS.endedProvider : MEETING_TOOLTIPS.ended) : missing ? (joinsForPatient ? MEETING_TOOLTIPS.missingFacility : MEETING_TOOLTIPS.missingProvider) : '';
  const joinLabel = joinsForPatient ? 'Join video call (patient)' : 'Join video call';
  return (
    <Box sx={{ display: 'inline-flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }} data-testid="video-meeting" data-state={view ? 'open' : ended ? 'ended' : missing ? 'missing' : 'loading'}>
      {(isProvider || joinsForPatient) && (
        <Tooltip title={tooltip} data-testid="meeting-join-tooltip">
          <span>
            <Button
              size={size}
              variant="contained"
              startIcon={<VideocamIcon />}
              disabled={!view || busy}
              onClick={() => void join()}
              data-testid={joinsForPatient ? 'meeting-join-patient' : 'meeting-join'}
              aria-description={tooltip || undefined}
            >
              {joinLabel}
            </Button>
          </span>
        </Tooltip>
      )}
      {canCreate && active && (meeting.data || meeting.failure) && (
        <Button size={size} onClick={() => void create()} disabled={busy} data-testid="meeting-recreate">
          {missing ? 'Create meeting link' : 'Recreate meeting link'}
        </Button>
      )}
      {view && (
        <>
          <Chip size="small" color={view.isProviderJoined ? 'success' : 'default'} label={view.isProviderJoined ? 'Provider joined' : 'Provider not joined'} data-testid="meeting-provider-joined" data-joined={view.isProviderJoined} />
          <Chip size="small" color={view.isPatientJoined ? 'success' : 'default'} label={view.isPatientJoined ? 'Patient joined' : 'Patient not joined'} data-testid="meeting-patient-joined" data-joined={view.isPatientJoined} />
        </>
      )}
      {ended && <Chip size="small" label="Meeting ended" data-testid="meeting-ended" />}
    </Box>
  );
}
