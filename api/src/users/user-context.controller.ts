import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { UserContext } from '@crisis/forms';
import { CheckAbility } from '../auth/abilities.guard';
import { CurrentUser } from '../auth/current-user.decorator';

@ApiTags('users')
@Controller('api/user')
export class UserContextController {
  /** Who is signed in: names, role, organization, division, ER line, and the CASL rules. */
  @Get('context')
  @CheckAbility('read', 'Profile')
  @ApiOkResponse({ description: 'The signed-in user and their packed CASL rules' })
  context(@CurrentUser() user: UserContext): UserContext {
    return user;
  }
}
