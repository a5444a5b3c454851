import { NAME_MAX_LENGTH } from "../facts.js";

export default {
  music: "BGM", effects: "効果音", volume: "音量", contrast: "高コントラストのタイル", theme: "テーマ", system: "システム",
  light: "ライト", dark: "ダーク", speed: "自動プレイの速さ", slow: "遅い", normal: "普通", fast: "速い",
  // The player section (player-ui.js).
  player: "プレイヤー", displayName: "表示名", saveName: "保存", nameSaved: "保存しました: {name}。デイリーチャレンジは、始めたときの名前で記録されます。",
  nameCleared: "名前を消しました。匿名になり、ランキングには載りません。",
  anonymousNote: "名前がないと匿名でプレイし、ランキングには載りません。",
  hideMe: "ランキングに表示しない", hostHidden: "ホストによりランキングから非表示にされています。",
  name_empty: "名前は1文字以上にしてください。", name_too_long: `名前は${NAME_MAX_LENGTH}文字までです。`,
  name_no_letter: "名前には文字か数字を1つ以上入れてください。",
  name_spaces: "先頭・末尾の空白や、連続した空白は使えません。",
  name_character: "{c}は名前に使えません。使えるのは文字・数字・単独の空白・_ - . だけです。",
  charShown: "「{ch}」（{about}）", charHidden: "見えない文字（{about}）",
  name_taken: "その名前はほかの人が使っています。", invalid_request: "その名前は使えません。",
  moveDevice: "別の端末に移る", showCode: "コードを取得",
  codeIs: "別の端末で15分以内にこのコードを入力してください（1回だけ使えます）:",
  enterCode: "別の端末のコード", useCode: "コードを使う", claimed: "この端末はそのプレイヤーになりました。",
  code_unknown: "そのコードはありません。", code_expired: "コードの期限が切れました。新しく取得してください。",
  code_used: "そのコードは使用済みです。新しく取得してください。", too_many_claims: "試行が多すぎます。1分待ってください。",
};
