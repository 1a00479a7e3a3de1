import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AppAbility, UserContext } from '@crisis/forms';

/** The signed-in user's context, as GET /api/user/context returns it. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): UserContext => ctx.switchToHttp().getRequest().user);
/** The signed-in user's CASL ability. */
export const CurrentAbility = createParamDecorator((_: unknown, ctx: ExecutionContext): AppAbility => ctx.switchToHttp().getRequest().ability);
