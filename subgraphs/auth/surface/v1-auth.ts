import { ACCESS_TOKEN_TTL_SECONDS } from '../../../core/auth/jwt';

/** What `chatappLogin` answers. */
export interface MemberLoginRecord {
  accessToken: string;
  refreshToken: string;
  member: { id: string; openId: string | null; unionId: string | null; nickName: string | null; avatarUrl: string | null };
}

/** A chat-app login as the contract answers it: the token pair and the chat-app user (contract section 2). */
export function chatappLoginOf({ accessToken, refreshToken, member }: MemberLoginRecord) {
  return {
    accessToken,
    tokenType: 'Bearer',
    expiresIn: ACCESS_TOKEN_TTL_SECONDS,
    refreshToken,
    user: { id: member.id, openid: member.openId, unionid: member.unionId, nickname: member.nickName, avatar: member.avatarUrl },
  };
}
