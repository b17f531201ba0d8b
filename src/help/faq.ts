// The questions of the FAQ page (/app/faq) in each interface language. Long prose lives here rather
// than in the catalogs, which every screen loads at start-up: this module loads with the FAQ page only.
// tests/views/help-faq.test.tsx keeps the three languages in step (same number of questions).
import type { Locale } from '../i18n/locale';

export type FaqEntry = { question: string; answer: string };

const EN: FaqEntry[] = [
  {
    question: 'Which files can I upload?',
    answer:
      'PDF files only, one at a time, up to 50 MB. Password-protected PDFs cannot be signed: remove the password and upload the file again. A file that is not a valid PDF, or an empty file, is refused and nothing is kept.',
  },
  {
    question: 'Why does my document say it is still being processed?',
    answer:
      'After an upload, and after each signature, Paraph prepares an image of every page. This takes a few minutes for a long document. You can already start a sign flow with a signature page meanwhile; the pages appear by themselves when they are ready.',
  },
  {
    question: 'What is the difference between a reviewer and a signatory?',
    answer:
      'A reviewer reads the document and approves or rejects it before anyone signs. A signatory signs it. The signatories are asked to sign only once every reviewer has approved; one rejection stops the sign flow.',
  },
  {
    question: 'Can I decide in which order people sign?',
    answer:
      'Yes. When you start the sign flow, tick “Sign in this order” and arrange the signatories: each one is asked to sign only after the previous one has signed. Without an order everybody can sign at once, and you may require a minimum number of signatures instead.',
  },
  {
    question: 'How do I ask someone who has no Paraph account to sign?',
    answer:
      'Type their whole e-mail address in the sign flow’s “Add people” box and choose “Invite”. They receive an e-mail; once they have an account with that address, the document waits for them in their To Do list.',
  },
  {
    question: 'How do I confirm my signature?',
    answer:
      'After “Continue” on the sign screen, confirm in your identity app on your phone or tablet: scan the code on the screen or open the link there. No notification? Choose “Resend Confirmation”. You may close the window; the document page shows the signature once you have confirmed.',
  },
  {
    question: 'Why was my signature refused because of my plan?',
    answer:
      'Each account plan (basic, qualified, advanced) allows a number of signatures per calendar month. When you have reached it, Paraph says so and no signature is made. Check your account plan, or wait for the next month.',
  },
  {
    question: 'What happens when I archive a document?',
    answer:
      'It leaves your lists and moves to your Archive; nothing changes for the other participants. An archived document can still be downloaded or deleted from the Archive.',
  },
  {
    question: 'Can I change or cancel a sign flow that has started?',
    answer:
      'Yes, as the owner, while it is in review or waiting for signatures: open the document and choose “Edit the sign flow” or “Cancel the sign flow”. Reviewers can only change while the flow is in review, and a signature that has been made cannot be moved or removed.',
  },
  {
    question: 'When are documents deleted?',
    answer:
      'Each document has an auto-deletion date (one year after the upload, unless your organisation chose otherwise), shown in the list’s “Deleted on” column. A document whose sign flow is still running waits until the flow ends. The audit trail is kept as evidence.',
  },
  {
    question: 'How can I prove who signed what and when?',
    answer:
      'Every signed PDF carries a digital signature for each signer, which PDF readers can check. On the document page, “Download audit trail” gives every step of the document with its time, the person, and the fingerprint of the file before and after each signature.',
  },
  {
    question: 'How do I change the language?',
    answer:
      'Use the language selector in the sidebar, or choose your language in Settings. The choice is saved in your profile, so it follows you to other devices.',
  },
];

const ES: FaqEntry[] = [
  {
    question: '¿Qué archivos puedo subir?',
    answer:
      'Solo archivos PDF, de uno en uno, de hasta 50 MB. Los PDF protegidos con contraseña no se pueden firmar: quite la contraseña y vuelva a subir el archivo. Un archivo que no es un PDF válido, o un archivo vacío, se rechaza y no se guarda nada.',
  },
  {
    question: '¿Por qué mi documento indica que todavía se está procesando?',
    answer:
      'Después de una subida, y después de cada firma, Paraph prepara una imagen de cada página. En un documento largo esto tarda unos minutos. Mientras tanto ya puede iniciar un flujo de firma con una página de firmas; las páginas aparecen solas cuando están listas.',
  },
  {
    question: '¿Qué diferencia hay entre un revisor y un firmante?',
    answer:
      'Un revisor lee el documento y lo aprueba o lo rechaza antes de que nadie firme. Un firmante lo firma. A los firmantes solo se les pide firmar cuando todos los revisores han aprobado; un solo rechazo detiene el flujo de firma.',
  },
  {
    question: '¿Puedo decidir en qué orden firman las personas?',
    answer:
      'Sí. Al iniciar el flujo de firma, marque “Firmar en este orden” y ordene a los firmantes: a cada uno se le pide firmar solo cuando el anterior ha firmado. Sin orden, todos pueden firmar a la vez, y puede exigir en su lugar un número mínimo de firmas.',
  },
  {
    question: '¿Cómo pido que firme a alguien que no tiene cuenta en Paraph?',
    answer:
      'Escriba su dirección de correo completa en el campo “Añadir personas” del flujo de firma y elija la opción de invitarle. Recibirá un correo; en cuanto tenga una cuenta con esa dirección, el documento le esperará en su lista de pendientes.',
  },
  {
    question: '¿Cómo confirmo mi firma?',
    answer:
      'Tras “Continuar” en la pantalla de firma, confirme en su aplicación de identidad en su teléfono o tableta: escanee el código de la pantalla o abra allí el enlace. ¿No le llega ninguna notificación? Elija “Reenviar confirmación”. Puede cerrar la ventana; la página del documento muestra la firma cuando usted la ha confirmado.',
  },
  {
    question: '¿Por qué se rechazó mi firma a causa de mi plan?',
    answer:
      'Cada plan de cuenta (básico, cualificado, avanzado) permite un número de firmas por mes natural. Cuando lo ha alcanzado, Paraph se lo indica y no se realiza ninguna firma. Revise su plan de cuenta o espere al mes siguiente.',
  },
  {
    question: '¿Qué ocurre cuando archivo un documento?',
    answer:
      'Sale de sus listas y pasa a su Archivo; para los demás participantes no cambia nada. Un documento archivado se puede seguir descargando o eliminando desde el Archivo.',
  },
  {
    question: '¿Puedo modificar o cancelar un flujo de firma ya iniciado?',
    answer:
      'Sí, como propietario, mientras está en revisión o esperando firmas: abra el documento y elija modificar o cancelar el flujo de firma. Los revisores solo se pueden cambiar mientras el flujo está en revisión, y una firma ya realizada no se puede mover ni quitar.',
  },
  {
    question: '¿Cuándo se eliminan los documentos?',
    answer:
      'Cada documento tiene una fecha de eliminación automática (un año después de la subida, salvo que su organización haya elegido otra cosa), visible en una columna de la lista. Un documento cuyo flujo de firma sigue en curso espera a que el flujo termine. El registro de auditoría se conserva como prueba.',
  },
  {
    question: '¿Cómo puedo demostrar quién firmó qué y cuándo?',
    answer:
      'Cada PDF firmado lleva una firma digital por firmante, que los lectores de PDF pueden comprobar. En la página del documento, “Descargar el registro de auditoría” le da cada paso del documento con su hora, la persona y la huella del archivo antes y después de cada firma.',
  },
  {
    question: '¿Cómo cambio el idioma?',
    answer:
      'Use el selector de idioma de la barra lateral o elija su idioma en Configuración. La elección se guarda en su perfil, de modo que le acompaña en otros dispositivos.',
  },
];

const FR: FaqEntry[] = [
  {
    question: 'Quels fichiers puis-je téléverser ?',
    answer:
      'Uniquement des fichiers PDF, un à la fois, jusqu’à 50 Mo. Les PDF protégés par mot de passe ne peuvent pas être signés : retirez le mot de passe et téléversez de nouveau le fichier. Un fichier qui n’est pas un PDF valide, ou un fichier vide, est refusé et rien n’est conservé.',
  },
  {
    question: 'Pourquoi mon document est-il encore en cours de traitement ?',
    answer:
      'Après un téléversement, et après chaque signature, Paraph prépare une image de chaque page. Pour un long document, cela prend quelques minutes. Vous pouvez déjà démarrer un circuit de signature avec une page de signatures ; les pages apparaissent d’elles-mêmes quand elles sont prêtes.',
  },
  {
    question: 'Quelle est la différence entre un relecteur et un signataire ?',
    answer:
      'Un relecteur lit le document et l’approuve ou le rejette avant que quiconque signe. Un signataire le signe. Les signataires ne sont sollicités qu’une fois que tous les relecteurs ont approuvé ; un seul rejet arrête le circuit de signature.',
  },
  {
    question: 'Puis-je choisir l’ordre dans lequel les personnes signent ?',
    answer:
      'Oui. En démarrant le circuit de signature, cochez « Signer dans cet ordre » et classez les signataires : chacun n’est sollicité qu’après la signature du précédent. Sans ordre, tout le monde peut signer en même temps, et vous pouvez plutôt exiger un nombre minimum de signatures.',
  },
  {
    question: 'Comment faire signer une personne qui n’a pas de compte Paraph ?',
    answer:
      'Tapez son adresse e-mail complète dans le champ « Ajouter des personnes » du circuit de signature et choisissez de l’inviter. Elle reçoit un e-mail ; dès qu’elle a un compte avec cette adresse, le document l’attend dans sa liste À faire.',
  },
  {
    question: 'Comment confirmer ma signature ?',
    answer:
      'Après « Continuer » sur l’écran de signature, confirmez dans votre application d’identité sur votre téléphone ou votre tablette : scannez le code affiché ou ouvrez-y le lien. Pas de notification ? Choisissez « Renvoyer la confirmation ». Vous pouvez fermer la fenêtre ; la page du document affiche la signature une fois confirmée.',
  },
  {
    question: 'Pourquoi ma signature a-t-elle été refusée à cause de ma formule ?',
    answer:
      'Chaque formule (basique, qualifiée, avancée) permet un nombre de signatures par mois civil. Quand vous l’avez atteint, Paraph vous le dit et aucune signature n’est faite. Vérifiez votre formule d’abonnement, ou attendez le mois suivant.',
  },
  {
    question: 'Que se passe-t-il quand j’archive un document ?',
    answer:
      'Il quitte vos listes et passe dans vos Archives ; rien ne change pour les autres participants. Un document archivé peut encore être téléchargé ou supprimé depuis les Archives.',
  },
  {
    question: 'Puis-je modifier ou annuler un circuit de signature déjà démarré ?',
    answer:
      'Oui, en tant que propriétaire, tant qu’il est en relecture ou en attente de signatures : ouvrez le document et choisissez de modifier ou d’annuler le circuit de signature. Les relecteurs ne peuvent changer que pendant la relecture, et une signature apposée ne peut plus être déplacée ni retirée.',
  },
  {
    question: 'Quand les documents sont-ils supprimés ?',
    answer:
      'Chaque document a une date de suppression automatique (un an après le téléversement, sauf si votre organisation en a décidé autrement), affichée dans une colonne de la liste. Un document dont le circuit de signature est en cours attend la fin du circuit. La piste d’audit est conservée comme preuve.',
  },
  {
    question: 'Comment prouver qui a signé quoi et quand ?',
    answer:
      'Chaque PDF signé porte une signature numérique par signataire, que les lecteurs PDF peuvent vérifier. Sur la page du document, « Télécharger la piste d’audit » donne chaque étape du document avec son heure, la personne et l’empreinte du fichier avant et après chaque signature.',
  },
  {
    question: 'Comment changer de langue ?',
    answer:
      'Utilisez le sélecteur de langue de la barre latérale, ou choisissez votre langue dans Paramètres. Le choix est enregistré dans votre profil : il vous suit sur vos autres appareils.',
  },
];

export const FAQ: Record<Locale, FaqEntry[]> = { en: EN, es: ES, fr: FR };
