import { Body, Controller } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CodedError, ErrorCode, type OnlineMeetingCreateInput, type OnlineMeetingRow, type OnlineMeetingView, type UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { CommandRoute } from '../cases/command-route';
import { config } from '../config';
import { ApiSchemaBody } from '../common/openapi';
import { IdParam } from '../common/id-param';
import { Route } from '../common/route';
import { schema } from '../common/validation.pipe';
import { OnlineMeetingsService } from './online-meetings.service';

const VIEW = 'joinUrl (the caller\'s own link: signed for them when the deployment has a Jitsi app secret), isProviderJoined, isPatientJoined, createdAt, scheduledAt';

/** The video meeting of a request (spec 01 §7 Requests: GET, POST and POST join at {id}/evaluation/online-meeting). */
@ApiTags('requests')
@Controller('api/requests')
export class OnlineMeetingsController {
  constructor(private readonly meetings: OnlineMeetingsService) {}

  @Route('GET', ':id/evaluation/online-meeting', 'read', 'OnlineMeeting')
  @ApiOkResponse({ description: VIEW })
  @ApiNotFoundResponse({ description: 'NTFND: no such request, or it has no meeting yet' })
  @ApiConflictResponse({ description: `${ErrorCode.OnlineMeetingEnded}: the meeting ended (join disabled; the provider may recreate it)` })
  view(@CurrentUser() user: UserContext, @IdParam() id: number): Promise<OnlineMeetingView> {
    return this.meetings.view(user, id);
  }

  @CommandRoute('POST', ':id/evaluation/online-meeting', 'create', 'OnlineMeeting', 'Request.OnlineMeeting.Create', `A new room, ending the open one: ${VIEW}`)
  @ApiSchemaBody('onlineMeetingCreate')
  @ApiConflictResponse({ description: `${ErrorCode.RequestNotActive}; ${ErrorCode.CaseIsClosed}` })
  create(@CurrentUser() user: UserContext, @IdParam() id: number, @Body(schema('onlineMeetingCreate')) body: OnlineMeetingCreateInput): Promise<OnlineMeetingView> {
    return this.meetings.create(user, id, body ?? {});
  }

  @CommandRoute('POST', ':id/evaluation/online-meeting/join', 'update', 'OnlineMeeting', 'Request.OnlineMeeting.Join', `Marks the provider (the request's) or the patient (source facility staff) joined: ${VIEW}`)
  @ApiConflictResponse({ description: `${ErrorCode.OnlineMeetingEnded}` })
  join(@CurrentUser() user: UserContext, @IdParam() id: number): Promise<OnlineMeetingView> {
    return this.meetings.join(user, id);
  }
}

/** Demo tools (spec 03 §2 "meetings"): the meetings with their rooms and flags, read only, in a demo deployment. */
@ApiTags('demo-tools')
@Controller('api/demo-tools')
export class DemoMeetingsController {
  constructor(private readonly meetings: OnlineMeetingsService) {}

  @Route('GET', 'meetings', 'access', 'DemoTools')
  @ApiOkResponse({ description: 'The newest 100 meetings: room, link without token, times, who joined, when and why it ended' })
  list(): Promise<OnlineMeetingRow[]> {
    if (!config.demoTools) throw new CodedError(ErrorCode.NotFound);
    return this.meetings.list();
  }
}
