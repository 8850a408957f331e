import { readableLine } from './readable-line';
import { clipped, type WebhookRenderer } from './rendered-body';

/** Telegram's limit on a message's text. */
const TELEGRAM_TEXT_LIMIT = 4_096;

/**
 * The Telegram Bot API's sendMessage (POST
 * `https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat>`, JSON
 * `{chat_id, text}`; core.telegram.org/bots/api#sendmessage), to the URL as
 * the trader gave it, the chat from its `chat_id` query parameter. Plain text:
 * no `parse_mode`, so nothing in a reason is read as markup.
 */
export const renderTelegram: WebhookRenderer = (payload, url) => {
  const chatId = new URL(url).searchParams.get('chat_id');
  if (!chatId) {
    throw new Error('a telegram webhook URL needs its chat_id query parameter');
  }
  return {
    url,
    body: JSON.stringify({
      chat_id: chatId,
      text: clipped(readableLine(payload), TELEGRAM_TEXT_LIMIT),
    }),
  };
};
