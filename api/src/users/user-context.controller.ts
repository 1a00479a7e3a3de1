import { Controller } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserContext } from '@crisis/forms';
import { CurrentUser } from '../auth/current-user.decorator';
import { Route } from '../common/route';

@ApiTags('users')
@Controller('api/user')
export class UserContextController {
  /** Who is signed in: names, role, organization, division, ER line, and the CASL rules. */
  @Route('GET', 'context', 'read', 'Profile')
  @ApiOkResponse({ description: 'The signed-in user and their packed CASL rules' })
  context(@CurrentUser() user: UserContext): UserContext {
    return user;
  }
}
