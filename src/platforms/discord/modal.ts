import type { APIModalInteractionResponseCallbackComponent, APIModalInteractionResponseCallbackData } from 'discord.js';
import { ComponentType, TextInputStyle } from 'discord.js';
import type { Reply } from '../../contracts/reply.js';
import { defaultLocale, t } from '../../i18n/index.js';
import { MODAL_ID, MODAL_INPUT_ID, type PromptSpec } from './custom-ids.js';
import { plain, renderLines } from './markdown.js';

/**
 * The modal that asks for free text (Reply.prompt: an address). The reply's lines, when there
 * are any, are shown above the input so the question keeps its explanation. Discord limits:
 * title and label 45, placeholder 100, text display 4000, input max_length 4000. `blankLabel`
 * ("Your answer", in the person's language) stands in for an empty label, which Discord refuses.
 */
export function buildModal(
  prompt: PromptSpec,
  reply?: Reply,
  blankLabel = t(defaultLocale(), 'platform.discord.yourAnswer'),
): APIModalInteractionResponseCallbackData {
  const components: APIModalInteractionResponseCallbackComponent[] = [];
  const explanation = reply ? renderLines(reply.lines, 4000) : '';
  if (explanation) components.push({ type: ComponentType.TextDisplay, content: explanation });
  const maxLength = Math.min(Math.max(Math.trunc(prompt.maxLength ?? 4000), 1), 4000);
  const placeholder = prompt.placeholder ? plain(prompt.placeholder, 100) : '';
  components.push({
    type: ComponentType.Label,
    label: plain(prompt.label, 45) || blankLabel,
    component: {
      type: ComponentType.TextInput,
      custom_id: MODAL_INPUT_ID,
      style: maxLength > 200 ? TextInputStyle.Paragraph : TextInputStyle.Short,
      required: true,
      min_length: 1,
      max_length: maxLength,
      ...(placeholder ? { placeholder } : {}),
    },
  });
  return { custom_id: MODAL_ID, title: plain(reply?.title ?? prompt.label, 45) || blankLabel, components };
}
