import { Injectable } from '@nestjs/common';
import { LiveGateway, userRoom } from './live.gateway';

/** Emits live events to rooms; call it after the change has committed. */
@Injectable()
export class LiveService {
  constructor(private readonly gateway: LiveGateway) {}

  toUser(userId: number, event: string, data: unknown) {
    this.gateway.server?.to(userRoom(userId)).emit(event, data);
  }

  toRoom(room: string, event: string, data: unknown) {
    this.gateway.server?.to(room).emit(event, data);
  }
}
